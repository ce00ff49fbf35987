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

  @McpResourceTemplate({ uriTemplate: 'forms://labels/file{.ext*}', name: 'labels', mimeType: 'application/json' })
  labels(@McpArgs() args: unknown) {
    return JSON.stringify(args);
  }

  @McpResourceTemplate({ uriTemplate: 'forms://list/{+items*}/end', name: 'list', mimeType: 'application/json' })
  list(@McpArgs() args: unknown) {
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
  '%2e%2e%2f',
  '..',
  '%2e%2e',
  '%252e%252e%252f',
  '..%5C..%5Cwin',
  '%C0%AE%C0%AE%C0%AF',
  '%EF%BC%8E%EF%BC%8E%EF%BC%8F', // fullwidth ．．／, ../ once NFKC-folded
];
const SMUGGLED = ['a%3Fb%23c', 'a%00b', '%00', 'a%0D%0Ab', '%zz', 'a%E2%80%AEb'];

/** One URI per form with `{}` where the attack goes. */
const FORMS = [
  'forms://simple/{}',
  'forms://reserved/{}',
  'forms://reserved/docs/{}/x',
  'forms://fragment#{}',
  'forms://label/file.{}',
  'forms://segment/{}',
  'forms://tree/a/{}/b',
  'forms://labels/file.a.{}',
  'forms://list/a,{}/end',
  'forms://matrix/m;v={}',
  'forms://query/q?term={}',
  'forms://query/q?term=a&page={}',
];

/**
 * Encoded path segments never reach a handler decoded into something the form does not allow (issue: a template
 * `docs/{name}` matched `..%2F..%2Fetc%2Fpasswd` as `../../etc/passwd`). Refused URIs get exactly the answer of an
 * unknown URI (resource not found), through the official SDK client over HTTP.
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
  /** The refusal as a client sees it, without the per-request id. */
  const answer = async (uri: string) => {
    const { code, message, status } = await rpcError(client.readResource(uri));
    return { uri, error: { code, message, status } };
  };

  it('hands each form exactly its decoded value', async () => {
    expect(await read('forms://simple/caf%C3%A9%20menu')).toEqual({ name: 'café menu' });
    expect(await read('forms://simple/50%25%20off')).toEqual({ name: '50% off' });
    expect(await read('forms://reserved/docs/guide/intro.md')).toEqual({ path: 'docs/guide/intro.md' });
    expect(await read('forms://fragment#a/b')).toEqual({ part: 'a/b' });
    expect(await read('forms://label/file.json')).toEqual({ ext: 'json' });
    expect(await read('forms://segment/abc')).toEqual({ one: 'abc' });
    expect(await read('forms://tree/a/b/c.txt')).toEqual({ path: 'a/b/c.txt' });
    expect(await read('forms://labels/file.tar.gz')).toEqual({ ext: 'tar.gz' });
    expect(await read('forms://list/a,b/c/end')).toEqual({ items: 'a,b/c' });
    expect(await read('forms://matrix/m;v=2')).toEqual({ v: '2' });
    expect(await read('forms://query/q?term=vpn%20down&page=2')).toEqual({ term: 'vpn down', page: '2' });
  });

  it('refuses traversal and smuggling through every form exactly as an unknown URI', async () => {
    const unknown = (await answer('forms://nowhere/at-all')).error;
    expect(unknown).toMatchObject({ code: -32002, message: 'Resource not found' });
    const uris = [...TRAVERSALS, ...SMUGGLED].flatMap((attack) => FORMS.map((form) => form.replace('{}', attack)));
    uris.push(
      'forms://reserved/docs/../secret',
      'forms://reserved/docs/./x',
      'forms://reserved//etc/passwd',
      'forms://reserved/%5C%5Cserver%5Cshare',
      'forms://reserved/C:/Windows/win.ini',
      'forms://fragment#/etc/passwd',
      'forms://tree/a/../b',
      'forms://tree//etc/passwd',
      'forms://tree/a//b',
      'forms://labels/file...',
    );
    const outcomes = await Promise.all(uris.map(answer));
    expect(outcomes.filter((o) => JSON.stringify(o.error) !== JSON.stringify(unknown))).toEqual([]);
    expect(outcomes).toHaveLength((TRAVERSALS.length + SMUGGLED.length) * FORMS.length + 10);
  });

  it('answers a URI built to make a regex backtrack without delay', async () => {
    const started = performance.now();
    const { error } = await answer(`forms://list/${','.repeat(2000)}!`);
    expect(error.code).toBe(-32002);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
