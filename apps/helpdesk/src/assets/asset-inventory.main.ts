import { startInventory } from './asset-inventory.server';

/**
 * The asset inventory as a process of its own (docker-compose.yml's service beside the replicas): HOST and PORT
 * say where it listens, ASSET_INVENTORY_API_KEY the key its callers present. Stops on SIGTERM or SIGINT.
 */
async function main(): Promise<void> {
  const key = process.env.ASSET_INVENTORY_API_KEY ?? '';
  const inventory = await startInventory(key, process.env.HOST ?? '127.0.0.1', Number(process.env.PORT ?? 8090));
  process.stdout.write(`${JSON.stringify({ level: 'info', msg: 'asset inventory listening', url: inventory.url })}\n`);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => void inventory.close().then(() => process.exit(0)));
  }
}

main().catch((error: Error) => {
  process.stderr.write(`asset inventory: ${error.message}\n`);
  process.exit(1);
});
