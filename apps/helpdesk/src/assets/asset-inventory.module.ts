import { Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { McpDownstreamModule } from '@app/mcp/downstream';
import { INVENTORY_ENDPOINT, InventoryEndpoint, resolveInventoryEndpoint } from './asset-inventory.endpoint';
import { INVENTORY_KEY_HEADER } from './asset-inventory.server';

/** Finds (or starts) the inventory once at boot, and stops the embedded one with the app. */
@Module({
  providers: [
    {
      provide: INVENTORY_ENDPOINT,
      useFactory: () => resolveInventoryEndpoint(process.env, new Logger('AssetInventory')),
    },
  ],
  exports: [INVENTORY_ENDPOINT],
})
export class AssetInventoryEndpointModule implements OnApplicationShutdown {
  constructor(@Inject(INVENTORY_ENDPOINT) private readonly endpoint: InventoryEndpoint) {}

  async onApplicationShutdown(): Promise<void> {
    await this.endpoint.embedded?.close();
  }
}

/**
 * The asset inventory's downstream client (`@InjectDownstream('asset-inventory')`): its own API key in `X-Api-Key`,
 * never the caller's token; a lookup gets 5 s at most within the call's deadline, retried as the client decides.
 */
export const AssetInventoryClientModule = McpDownstreamModule.registerAsync({
  name: 'asset-inventory',
  imports: [AssetInventoryEndpointModule],
  inject: [INVENTORY_ENDPOINT],
  useFactory: (endpoint: InventoryEndpoint) => ({
    baseUrl: endpoint.url,
    credentials: { type: 'static', header: INVENTORY_KEY_HEADER, value: endpoint.apiKey },
    timeoutMs: 5_000,
  }),
});
