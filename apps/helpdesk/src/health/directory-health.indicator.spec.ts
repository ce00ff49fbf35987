import { Test } from '@nestjs/testing';
import { TerminusModule } from '@nestjs/terminus';
import { createServer, Server } from 'node:http';
import { DIRECTORY_URL, DirectoryHealthIndicator } from './directory-health.indicator';
import { directoryCheckProviders } from './helpdesk-health.module';

describe('DirectoryHealthIndicator', () => {
  let server: Server;
  let url: string;
  let status = 200;
  let paths: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => (paths.push(req.url!), res.writeHead(status).end()));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  });
  afterAll(() => new Promise((ok) => server.close(ok)));

  async function indicator(): Promise<DirectoryHealthIndicator> {
    const ref = await Test.createTestingModule({
      imports: [TerminusModule],
      providers: [{ provide: DIRECTORY_URL, useValue: url }, DirectoryHealthIndicator],
    }).compile();
    return ref.get(DirectoryHealthIndicator);
  }

  it('is up when <url>/health answers 2xx, and down otherwise', async () => {
    const check = await indicator();
    status = 200;
    paths = [];
    expect(await check.isHealthy('directory', AbortSignal.timeout(1_000))).toEqual({ directory: { status: 'up' } });
    expect(paths).toEqual(['/health']);
    status = 503;
    expect(await check.isHealthy('directory', AbortSignal.timeout(1_000))).toEqual({
      directory: { status: 'down', message: 'answered HTTP 503' },
    });
  });

  it('is registered only when HELPDESK_DIRECTORY_URL is set', () => {
    expect(directoryCheckProviders({})).toEqual([]);
    expect(directoryCheckProviders({ HELPDESK_DIRECTORY_URL: ' ' })).toEqual([]);
    expect(directoryCheckProviders({ HELPDESK_DIRECTORY_URL: 'http://directory.internal' })).toEqual([
      { provide: DIRECTORY_URL, useValue: 'http://directory.internal' },
      DirectoryHealthIndicator,
    ]);
  });
});
