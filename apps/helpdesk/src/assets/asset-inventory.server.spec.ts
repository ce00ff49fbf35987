import { Logger } from '@nestjs/common';
import { RunningInventory, createInventoryServer, startInventory } from './asset-inventory.server';
import { resolveInventoryEndpoint } from './asset-inventory.endpoint';

const KEY = 'k'.repeat(32);

describe('the asset inventory service', () => {
  let inventory: RunningInventory;
  beforeAll(async () => (inventory = await startInventory(KEY)));
  afterAll(() => inventory.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(new URL(path, inventory.url), { headers }).then(async (r) => ({ status: r.status, body: await r.json() }));

  it('answers an asset to a caller presenting its key, 404 for an unknown tag', async () => {
    expect(inventory.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await get('/assets/lt-1001', { 'X-Api-Key': KEY })).toEqual({
      status: 200,
      body: expect.objectContaining({ tag: 'LT-1001', kind: 'laptop', assignedTo: 'alice' }),
    });
    expect(await get('/assets/ZZ-0000', { 'X-Api-Key': KEY })).toEqual({
      status: 404,
      body: { message: 'No asset has that tag.' },
    });
  });

  it('refuses a request without the key, with a wrong key, and with a bearer token even beside the key', async () => {
    expect((await get('/assets/LT-1001')).status).toBe(401);
    expect((await get('/assets/LT-1001', { 'X-Api-Key': 'x'.repeat(32) })).status).toBe(401);
    const bearer = await get('/assets/LT-1001', { 'X-Api-Key': KEY, Authorization: 'Bearer a.b.c' });
    expect(bearer).toEqual({ status: 401, body: { message: expect.stringMatching(/never a bearer token/) } });
  });

  it('serves /health without a key, and nothing but its assets', async () => {
    expect(await get('/health')).toEqual({ status: 200, body: { status: 'up' } });
    expect((await get('/tickets', { 'X-Api-Key': KEY })).status).toBe(404);
  });

  it('refuses a key shorter than 16 characters', () => {
    expect(() => createInventoryServer('short')).toThrow(/16 characters/);
  });
});

describe('resolveInventoryEndpoint', () => {
  it('uses ASSET_INVENTORY_URL and ASSET_INVENTORY_API_KEY when both are set, starting nothing', async () => {
    const env = { ASSET_INVENTORY_URL: 'https://cmdb.internal/api/', ASSET_INVENTORY_API_KEY: KEY };
    expect(await resolveInventoryEndpoint(env)).toEqual({ url: 'https://cmdb.internal/api/', apiKey: KEY });
  });

  it('refuses one without the other', async () => {
    await expect(resolveInventoryEndpoint({ ASSET_INVENTORY_URL: 'https://cmdb.internal/' })).rejects.toThrow(
      'asset inventory: ASSET_INVENTORY_API_KEY is missing',
    );
    await expect(resolveInventoryEndpoint({ ASSET_INVENTORY_API_KEY: KEY })).rejects.toThrow(
      'asset inventory: ASSET_INVENTORY_URL is missing',
    );
  });

  it.each(['development', 'production'])(
    'with neither (NODE_ENV=%s), starts the embedded inventory on loopback with a fresh key',
    async (nodeEnv) => {
      const logger = { log: jest.fn(), warn: jest.fn() } as unknown as Logger;
      const endpoint = await resolveInventoryEndpoint({ NODE_ENV: nodeEnv }, logger);
      try {
        expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
        expect(endpoint.apiKey).toMatch(/^[0-9a-f]{48}$/);
        const answer = await fetch(new URL('assets/PH-3001', endpoint.url), {
          headers: { 'X-Api-Key': endpoint.apiKey },
        });
        expect(answer.status).toBe(200);
        const said = nodeEnv === 'production' ? logger.warn : logger.log;
        expect(said).toHaveBeenCalledWith(
          expect.stringContaining(`the embedded asset inventory serves on ${endpoint.url}`),
        );
      } finally {
        await endpoint.embedded!.close();
      }
    },
  );
});
