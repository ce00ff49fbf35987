import {
  CanActivate,
  Controller,
  ExecutionContext,
  INestApplication,
  Injectable,
  MiddlewareConsumer,
  Module,
  NestModule,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpHttpAdapter, ReadsOwnBody, createNestHttpApp } from './http-adapter';
import { nodeRequest, nodeResponse } from './node-http';
import { installRequestHook } from './request-hook';

/** What each layer saw of a request, in the order they ran. */
const seen: string[] = [];

@Injectable()
class HeaderGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    seen.push(`guard content-type=${req.headers['content-type']} content-length=${req.headers['content-length']}`);
    return true;
  }
}

@Controller()
class BodyController {
  @Post('own')
  @ReadsOwnBody()
  @UseGuards(HeaderGuard)
  async own(@Req() req: unknown, @Res() reply: unknown): Promise<void> {
    const raw = nodeRequest(req);
    const chunks: Buffer[] = [];
    for await (const chunk of raw) chunks.push(chunk as Buffer);
    nodeResponse(reply)
      .writeHead(200)
      .end(`read ${Buffer.concat(chunks).toString()}`);
  }
}

@Module({ controllers: [BodyController], providers: [HeaderGuard] })
class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply((_req: IncomingMessage, _res: ServerResponse, next: () => void) => (seen.push('app middleware'), next()))
      .forRoutes('{*path}');
  }
}

describe.each<McpHttpAdapter>(['express', 'fastify'])('on %s', (adapter) => {
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    app = await createNestHttpApp(AppModule, adapter, { logger: false });
    const http = app.getHttpAdapter();
    installRequestHook(http, (req, res, next) => {
      seen.push(`earlier hook ${req.url}`);
      next();
    });
    // Installed second: runs first, the earlier one after it.
    installRequestHook(http, (req, res, next) => {
      seen.push(`hook ${req.method} ${req.url} (node objects: ${typeof res.writeHead})`);
      if (req.url === '/answered') return void res.writeHead(204).end();
      next();
    });
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(() => app.close());
  beforeEach(() => (seen.length = 0));

  it('runs the request hook first, on Node objects, then a hook set before it, then the app middleware', async () => {
    const res = await fetch(`${url}/own`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(200);
    expect(seen.slice(0, 3)).toEqual([
      'hook POST /own (node objects: function)',
      'earlier hook /own',
      'app middleware',
    ]);
  });

  it('lets the hook answer a request itself', async () => {
    const res = await fetch(`${url}/answered`, { method: 'POST' });
    expect(res.status).toBe(204);
    expect(seen).toEqual(['hook POST /answered (node objects: function)']);
  });

  it('leaves the body of a ReadsOwnBody route to the handler, whatever its Content-Type; guards see the headers sent', async () => {
    for (const type of ['application/json', 'text/plain;;;', 'nonsense']) {
      seen.length = 0;
      const res = await fetch(`${url}/own`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': type } });
      expect(await res.text()).toBe('read {"a":1}');
      expect(seen).toContain(`guard content-type=${type} content-length=7`);
    }
  });
});
