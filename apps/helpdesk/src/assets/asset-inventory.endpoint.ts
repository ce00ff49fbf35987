import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { RunningInventory, startInventory } from './asset-inventory.server';

/** Injection token of where the asset inventory is and the key it wants. */
export const INVENTORY_ENDPOINT = Symbol('INVENTORY_ENDPOINT');

/** Where the inventory is, its key, and the embedded one when the app started it itself. */
export interface InventoryEndpoint {
  url: string;
  apiKey: string;
  embedded?: RunningInventory;
}

/**
 * `ASSET_INVENTORY_URL` and `ASSET_INVENTORY_API_KEY` name the inventory service (docker-compose.yml runs it beside
 * the replicas). With neither set, the app starts the inventory itself on an ephemeral loopback port with a fresh
 * key, so `npm start` needs no set-up, as with the development issuer. Unlike the issuer it also does so in
 * production, with a warning: the example's data live in memory everywhere (its tickets too), and the contract gate
 * and `npm run compliance` start the app in its production configuration with nothing beside it. One of the two set
 * without the other is a mistake, refused at boot.
 */
export async function resolveInventoryEndpoint(env: NodeJS.ProcessEnv, logger?: Logger): Promise<InventoryEndpoint> {
  const url = env.ASSET_INVENTORY_URL?.trim();
  const apiKey = env.ASSET_INVENTORY_API_KEY?.trim();
  if (url && apiKey) return { url, apiKey };
  if (url || apiKey) {
    throw new Error(
      `asset inventory: ${url ? 'ASSET_INVENTORY_API_KEY' : 'ASSET_INVENTORY_URL'} is missing (set both to call an inventory service, or neither to start the embedded one)`,
    );
  }
  const key = randomBytes(24).toString('hex');
  const embedded = await startInventory(key);
  const where = `ASSET_INVENTORY_URL not set: the embedded asset inventory serves on ${embedded.url}`;
  if (env.NODE_ENV === 'production') logger?.warn(`${where} (the example's own data, not a real inventory)`);
  else logger?.log(where);
  return { url: embedded.url, apiKey: key, embedded };
}
