import { Controller, Get, INestApplication, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpLogger } from './mcp.logger';
import { McpLoggerModule } from './mcp-logger.module';

@Controller()
class PingController {
  private readonly logger = new Logger('Ping');

  @Get('/ping')
  ping(): string {
    this.logger.log('pinged');
    return 'pong';
  }
}

/** McpLoggerModule in an app without McpModule: its own middleware gives the request id and the access line. */
describe('McpLoggerModule without McpModule', () => {
  let dir: string;
  let file: string;
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-logger-module-'));
    file = join(dir, 'app.log');
    @Module({ imports: [McpLoggerModule.forRoot({ destination: file })], controllers: [PingController] })
    class AppModule {}
    app = await NestFactory.create(AppModule, { bufferLogs: true });
    app.useLogger(app.get(McpLogger));
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tags the lines a request writes with its X-Request-Id and writes its access line', async () => {
    const res = await fetch(`${base}/ping?token=secret-in-query`, { headers: { 'x-request-id': 'ping-0001' } });
    expect(res.headers.get('x-request-id')).toBe('ping-0001');
    expect(await res.text()).toBe('pong');
    await new Promise((r) => setTimeout(r, 20));
    app.get(McpLogger).flush();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => l.msg === 'pinged')).toMatchObject({ context: 'Ping', requestId: 'ping-0001' });
    expect(lines.find((l) => l.msg === 'request completed')).toMatchObject({
      level: 'info',
      req: { id: 'ping-0001', method: 'GET', path: '/ping' },
      res: { statusCode: 200 },
    });
    expect(readFileSync(file, 'utf8')).not.toContain('secret-in-query');
  });
});
