import { Injectable } from '@nestjs/common';
import { McpArgs, McpScopes, McpTool, ToolExecutionError } from '@app/mcp';
import { InjectDownstream, McpDownstreamClient, isDownstreamError } from '@app/mcp/downstream';
import { AssetTagDto } from './dto/asset-tag.dto';
import { ASSET_SCHEMA } from './asset.schemas';
import { Asset } from './asset.model';

/** Error texts never repeat the caller's input: they say what to do instead. */
export const NO_SUCH_ASSET = 'No asset has that tag. Ask the requester for the tag printed on the device.';

/**
 * The helpdesk's view of the asset inventory, a service of its own reached through a downstream client. A 404 is
 * the inventory's answer ("no such asset"), said as such; every other failure (the inventory down, refusing the
 * key, too slow) is left to the client's mapping, which gives the caller the corporate error for it.
 */
@Injectable()
@McpScopes('tickets:read')
export class AssetsTools {
  constructor(@InjectDownstream('asset-inventory') private readonly inventory: McpDownstreamClient) {}

  @McpTool({
    name: 'get_asset',
    title: 'Get asset',
    description:
      'Looks a device up in the asset inventory by its tag: kind, model, who has it, where, and whether its warranty still runs. Use it on hardware tickets before suggesting a repair or a replacement.',
    input: AssetTagDto,
    output: ASSET_SCHEMA,
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  async get(@McpArgs('tag') tag: string) {
    try {
      const asset = await this.inventory.get<Asset>(`assets/${encodeURIComponent(tag.toUpperCase())}`);
      return { ...asset, underWarranty: asset.warrantyUntil >= new Date().toISOString().slice(0, 10) };
    } catch (error) {
      if (isDownstreamError(error) && error.status === 404) throw new ToolExecutionError(NO_SUCH_ASSET);
      throw error;
    }
  }
}
