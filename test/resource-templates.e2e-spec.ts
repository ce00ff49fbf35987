import { Injectable, Module } from '@nestjs/common';
import { McpArgs, McpModule, McpResourceTemplate } from '@app/mcp';
import { McpTestClient, McpTestServer, startMcpTestServer } from '@app/mcp-testing';
import { rpcError } from './support/rpc-error';

/** One template of each RFC 6570 form; each handler answers with the variables it was given. */
@Injectable()
class FormsResources {
  @McpResourceTemplate({ uriTemplate: 'forms://simple/{name}', name: 'simple', mimeType: 'application/json' })
  simple(@McpArgs() args: unknown) {
    return JSON.stringify(args);
  }

  @McpResourceTemplate({ uriTemplate: 'forms://reserved/{+path}', name: 'reserved', mimeType: 'application/json' })
  reserved(@McpArgs() args: unknown) {
    return JSON.stringify(args);
  }

  @McpResourceTemplate({ uriTemplate: 'forms://fragment{#part}', name: 'fragment', mimeType: 'application/json' })
  fragment(@McpArgs() args: unknown) {
    return JSON.stringify(args);
  }

  @McpResourceTemplate({ uriTemplate: 'forms://label/file{.ext}', name: 'label', mimeType: 'application/json' })
  label(@McpArgs() args: unknown) {
    return JSON.stringify(args);
  }

  @McpResourceTemplate({ uriTemplate: 'forms://segment{/one}', name: 'segment', mimeType: 'application/json' })
  segment(@McpArgs() args: unknown) {
    return JSON.stringify(args);
  }

  @McpResourceTemplate({ uriTemplate: 'forms://tree{/path*}', name: 'tree', mimeType: 'application/json' })
  tree(@McpArgs() args: unknown) {
    return JSON.stringify(args);
  }

  @McpResourceTemplate({ uriTemplate: 'forms://matrix/m{;v}', name: 'matrix', mimeType: 'application/json' })
  matrix(@McpArgs() args: unknown) {
    return JSON.stringify(args);
  }

  @McpResourceTemplate({ uriTemplate: 'forms://query/q{?term}{&page}', name: 'query', mimeType: 'application/json' })
  query(@McpArgs() args: unknown) {
    return JSON.stringify(args);
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'forms', servicePage: false })],
  providers: [FormsResources],
})
class FormsModule {}

const TRAVERSALS = [
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2fetc',
  '..',
  '%2e%2e',
  '%252e%252e%252f',
  '..%5C..%5Cwin',
];
const SMUGGLED = ['a%3Fb%23c', 'a%00b', '%C0%AE%C0%AE', 'a%0D%0Ab'];

/**
 * Encoded path segments never reach a handler decoded into something the form does not allow (issue: a template
 * `docs/{name}` matched `..%2F..%2Fetc%2Fpasswd` as `../../etc/passwd`). Refused URIs get the ordinary
 * resource-not-found error, through the official SDK client over HTTP.
 */
describe('resource templates: what a handler can rely on', () => {
  let server: McpTestServer;
  let client: McpTestClient;
  beforeAll(async () => {
    server = await startMcpTestServer(FormsModule);
    client = await server.connect();
  });
  afterAll(() => server.close());

  const read = async (uri: string) =>
    JSON.parse(((await client.readResource(uri)).contents[0] as { text: string }).text);
  const refused = async (uri: string) => ({ uri, code: (await rpcError(client.readResource(uri))).code });

  it('passes decoded values of the allowed shape', async () => {
    expect(await read('forms://simple/caf%C3%A9%20menu')).toEqual({ name: 'café menu' });
    expect(await read('forms://reserved/docs/guide/intro.md')).toEqual({ path: 'docs/guide/intro.md' });
    expect(await read('forms://fragment#a/b')).toEqual({ part: 'a/b' });
    expect(await read('forms://label/file.json')).toEqual({ ext: 'json' });
    expect(await read('forms://segment/abc')).toEqual({ one: 'abc' });
    expect(await read('forms://tree/a/b/c.txt')).toEqual({ path: 'a/b/c.txt' });
    expect(await read('forms://matrix/m;v=2')).toEqual({ v: '2' });
    expect(await read('forms://query/q?term=vpn%20down&page=2')).toEqual({ term: 'vpn down', page: '2' });
  });

  it('refuses traversal and smuggling through every form with resource-not-found (-32002)', async () => {
    const uris: string[] = [];
    for (const attack of [...TRAVERSALS, ...SMUGGLED]) {
      uris.push(
        `forms://simple/${attack}`,
        `forms://reserved/${attack}`,
        `forms://reserved/docs/${attack}/x`,
        `forms://fragment#${attack}`,
        `forms://label/file.${attack}`,
        `forms://segment/${attack}`,
        `forms://tree/a/${attack}/b`,
        `forms://matrix/m;v=${attack}`,
        `forms://query/q?term=${attack}`,
        `forms://query/q?term=a&page=${attack}`,
      );
    }
    uris.push('forms://reserved/docs/../secret', 'forms://tree/a/../b', 'forms://reserved/docs/./x');
    const outcomes = await Promise.all(uris.map(refused));
    expect(outcomes.filter((o) => o.code !== -32002)).toEqual([]);
    expect(outcomes).toHaveLength(TRAVERSALS.length * 10 + SMUGGLED.length * 10 + 3);
  });
});
