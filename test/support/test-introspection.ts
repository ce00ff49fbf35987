import { createServer, Server } from 'node:http';

/**
 * An RFC 7662 introspection endpoint on loopback for the tests: known opaque tokens, client
 * credentials checked with Basic auth, a call counter, and a switch to make it fail.
 */
export class TestIntrospection {
  readonly clientId = 'desk-rs';
  readonly clientSecret = 'introspection-secret-for-tests';
  calls = 0;
  failing = false;
  readonly tokens = new Map<string, Record<string, unknown>>();
  private server!: Server;
  url = '';

  static async start(): Promise<TestIntrospection> {
    const t = new TestIntrospection();
    t.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        t.calls++;
        const expected = `Basic ${Buffer.from(`${t.clientId}:${t.clientSecret}`).toString('base64')}`;
        if (t.failing) return void res.writeHead(500).end();
        if (req.headers.authorization !== expected) return void res.writeHead(401).end();
        const token = new URLSearchParams(body).get('token') ?? '';
        res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify(t.tokens.get(token) ?? { active: false }));
      });
    });
    await new Promise<void>((ok) => t.server.listen(0, '127.0.0.1', ok));
    t.url = `http://127.0.0.1:${(t.server.address() as { port: number }).port}/introspect`;
    return t;
  }

  env(): Record<string, string> {
    return {
      MCP_INTROSPECTION_URL: this.url,
      MCP_INTROSPECTION_CLIENT_ID: this.clientId,
      MCP_INTROSPECTION_CLIENT_SECRET: this.clientSecret,
    };
  }

  close(): Promise<void> {
    return new Promise((ok) => this.server.close(() => ok()));
  }
}
