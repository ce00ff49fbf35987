import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpModule } from '../mcp.module';
import { McpTool } from '../decorators/mcp-tool.decorator';
import { McpApp } from '../decorators/mcp-app.decorator';
import { McpScopes } from '../decorators/mcp-scopes.decorator';
import { McpRegistry } from '../registry/mcp.registry';
import { serverCapabilities } from '../protocol/server-capabilities';

const ro = { annotations: { readOnlyHint: true } } as const;
const BOARD = 'ui://svc/board';

async function boot(...providers: (new (...a: never[]) => unknown)[]) {
  return bootWith({}, ...providers);
}

async function bootWith(options: { views?: { root: string } }, ...providers: (new (...a: never[]) => unknown)[]) {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'svc', version: '1.2.3', http: false, ...options })],
    providers,
  }).compile();
  await moduleRef.init();
  return moduleRef.get(McpRegistry);
}

@Injectable()
class Board {
  @McpApp({ uri: BOARD, name: 'board', csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true })
  board() {
    return '<!DOCTYPE html><html><script>fetch("https://api.example.com/x")</script></html>';
  }
  @McpTool({ description: 'Shows the board.', ui: { resourceUri: BOARD }, ...ro })
  showBoard() {
    return 'ok';
  }
  @McpTool({ description: 'Refreshes the board.', ui: { resourceUri: BOARD, visibility: ['app'] }, ...ro })
  refreshBoard() {
    return 'ok';
  }
}

describe('MCP Apps at boot (@McpApp, @McpTool ui)', () => {
  it('registers a view as a ui:// resource with its _meta.ui, and links tools with _meta.ui', async () => {
    const registry = await boot(Board);
    const view = registry.resources.get(BOARD)!;
    expect(view.mimeType).toBe('text/html;profile=mcp-app');
    const { resources } = JSON.parse(registry.page('resources', '2025-11-25', undefined));
    expect(resources.find((r: { uri: string }) => r.uri === BOARD)).toEqual({
      uri: BOARD,
      name: 'board',
      mimeType: 'text/html;profile=mcp-app',
      _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true } },
    });
    const { tools } = JSON.parse(registry.page('tools', '2026-07-28', undefined));
    const meta = Object.fromEntries(
      tools.map((t: { name: string; _meta?: { ui?: unknown } }) => [t.name, t._meta?.ui]),
    );
    // An app-only tool is still listed: the host, not the server, keeps it from the model.
    expect(meta).toEqual({
      show_board: { resourceUri: BOARD, visibility: ['model', 'app'] },
      refresh_board: { resourceUri: BOARD, visibility: ['app'] },
    });
    for (const version of ['2025-11-25', '2026-07-28'] as const)
      expect(serverCapabilities(registry, version).extensions).toEqual({
        'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
      });
  });

  it('declares no ui extension without a view', async () => {
    @Injectable()
    class Plain {
      @McpTool({ description: 'Plain.', ...ro })
      plain() {
        return 'ok';
      }
    }
    expect(serverCapabilities(await boot(Plain), '2026-07-28').extensions).toBeUndefined();
  });

  it('refuses the boot naming every MCP Apps problem and its provider method', async () => {
    @Injectable()
    class Broken {
      @McpApp({ uri: 'svc://not-ui', name: 'wrong' })
      wrongScheme() {
        return '<html></html>';
      }
      @McpApp({ uri: 'ui://svc/cdn', name: 'cdn' })
      cdn() {
        return '<html xmlns="http://www.w3.org/1999/xhtml"><script src="https://cdn.example.com/a.js"></script></html>';
      }
      @McpApp({ uri: 'ui://svc/narrow', name: 'narrow', csp: { connectDomains: ['https://img.example.com'] } })
      narrow() {
        return '<img src="https://img.example.com/a.png">';
      }
      @McpScopes('board:read')
      @McpApp({ uri: 'ui://svc/ok', name: 'ok' })
      ok(page: number) {
        return `<a href="https://elsewhere.example/${page}">dynamic: not checked at boot</a>`;
      }
      @McpTool({ description: 'Links nothing.', ui: { resourceUri: 'ui://svc/missing' }, ...ro })
      dangling() {
        return 'ok';
      }
      @McpScopes('board:write')
      @McpTool({ description: 'App only.', ui: { resourceUri: 'ui://svc/ok', visibility: ['app'] }, ...ro })
      appOnly() {
        return 'ok';
      }
    }
    const boot$ = boot(Broken);
    await expect(boot$).rejects.toThrow(/Broken\.wrongScheme: @McpApp view "svc:\/\/not-ui": the URI of a view must/);
    await expect(boot$).rejects.toThrow(/Broken\.cdn: .*declares no csp.*references https:\/\/cdn\.example\.com:/);
    await expect(boot$).rejects.toThrow(/Broken\.narrow: .* add "https:\/\/img\.example\.com" to csp\.resourceDomains/);
    await expect(boot$).rejects.toThrow(/Broken\.dangling: .*"ui:\/\/svc\/missing" names no @McpApp view/);
    await expect(boot$).rejects.toThrow(/Broken\.appOnly: app-only tool "app_only" requires board:write, which/);
    await expect(boot$).rejects.toThrow(/^Invalid MCP registry \(5 problems\)/);
  });

  describe('a built view (@McpApp({ view }))', () => {
    const root = mkdtempSync(join(tmpdir(), 'built-views-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    let reads = 0;

    @Injectable()
    class Built {
      @McpApp({ uri: 'ui://svc/built', name: 'built', view: 'built' })
      built(): void {
        reads++;
      }
      @McpTool({ description: 'Shows it.', ui: { resourceUri: 'ui://svc/built' }, ...ro })
      show() {
        return 'ok';
      }
    }

    it('serves <views.root>/<view>.html read once at boot, after the method ran through the pipeline', async () => {
      writeFileSync(join(root, 'built.html'), '<!doctype html><p>built</p>');
      const registry = await bootWith({ views: { root } }, Built);
      writeFileSync(join(root, 'built.html'), 'changed on disk: not read again');
      const entry = registry.resources.get('ui://svc/built')!;
      const ctx = {} as Parameters<typeof entry.handler>[1];
      reads = 0;
      expect(await entry.handler({}, ctx)).toBe('<!doctype html><p>built</p>');
      expect(await entry.handler({}, ctx)).toBe('<!doctype html><p>built</p>');
      // The method ran on each read (its guards and interceptors with it); the document is the one read at boot.
      expect(reads).toBe(2);
    });

    it('refuses the boot when the view is not built, naming the method; its tools still find the view', async () => {
      rmSync(join(root, 'built.html'), { force: true });
      const boot$ = bootWith({ views: { root } }, Built);
      await expect(boot$).rejects.toThrow(/^Invalid MCP registry \(1 problem\)/);
      await expect(boot$).rejects.toThrow(/Built\.built: view "built" is not built: .*built\.html does not exist/);
    });

    it('checks a built view against its csp like any static HTML', async () => {
      writeFileSync(join(root, 'built.html'), '<img src="https://cdn.example.com/logo.png">');
      await expect(bootWith({ views: { root } }, Built)).rejects.toThrow(
        /Built\.built: .*declares no csp.*references https:\/\/cdn\.example\.com/,
      );
    });
  });
});
