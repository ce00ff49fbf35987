import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Http1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as Stdio1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as Stdio2 } from '@modelcontextprotocol/client/stdio';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { McpTestIssuer } from '@app/mcp-testing';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { RunningServer, startHttpServer } from '../../../../test/support/server-process';

const ROOT = resolve(__dirname, '../../../..');
const APP_MAIN = resolve(ROOT, 'dist/apps/helpdesk/apps/helpdesk/src/main.js');

/** What the suite needs of any of the clients, whatever its package and era. */
interface AnyClient {
  era: string;
  listTools(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<{ structuredContent?: unknown; isError?: boolean }>;
  close(): Promise<void>;
}

const confirm = { action: 'accept', content: { confirm: true } } as const;
const serverEnv = () => ({ ...(process.env as Record<string, string>), NODE_OPTIONS: '' });

async function sdk1(transport: Http1 | Stdio1): Promise<AnyClient> {
  const client = new Client1({ name: 'helpdesk-interop', version: '1.32' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => confirm);
  // The revision the server answered initialize with: the 1.x client hands it to the transport.
  let negotiated = '?';
  const t = transport as { setProtocolVersion?: (v: string) => void };
  const own = t.setProtocolVersion?.bind(transport);
  t.setProtocolVersion = (v) => {
    negotiated = v;
    own?.(v);
  };
  await client.connect(transport);
  return {
    era: negotiated,
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    call: (name, args) =>
      client.callTool({ name, arguments: args }, CallToolResultSchema) as Promise<{ structuredContent?: unknown }>,
    close: () => client.close(),
  };
}

async function sdk2(transport: Http2 | Stdio2, mode: { pin: string } | 'auto'): Promise<AnyClient> {
  const client = new Client2(
    { name: 'helpdesk-interop', version: '2.4' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode } },
  );
  client.setRequestHandler('elicitation/create', async () => confirm);
  await client.connect(transport);
  return {
    era: client.getNegotiatedProtocolVersion() ?? '?',
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    call: (name, args) => client.callTool({ name, arguments: args }),
    close: () => client.close(),
  };
}

/**
 * The example app, built as its image builds it, with authentication on (a real local JWKS issuer), driven by the
 * official clients a team's users have: the SDK 1.x (2025-11-25, sessions) and the client 2.4 pinned to 2026-07-28
 * and in auto mode (it probes and goes modern), over Streamable HTTP and stdio. Each lists the tools and closes a
 * ticket after the user confirms: a server request in the 2025 era, a multi round-trip request in 2026-07-28; then
 * looks an asset up in the inventory the app started beside itself (no ASSET_INVENTORY_URL).
 */
describe('helpdesk with the official clients, both eras, HTTP and stdio', () => {
  let issuer: McpTestIssuer;
  let server: RunningServer;
  let token: string;

  beforeAll(async () => {
    // As `npm run build` does it: the app, then its views (skipped when nothing changed since the last build).
    const build = spawnSync(process.execPath, ['scripts/start.mjs', '--build-only', 'helpdesk'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (build.status !== 0) throw new Error(`nest build helpdesk failed:\n${build.stdout}\n${build.stderr}`);
    issuer = await McpTestIssuer.start({ audience: 'mcp:helpdesk', scope: 'tickets:read tickets:write' });
    server = await startHttpServer(APP_MAIN, { ...issuer.env(), NODE_ENV: 'production', LOG_LEVEL: 'warn' });
    token = await issuer.mint();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await issuer?.close();
  });

  const http = (): { url: URL; bearer: { authProvider: { token: () => Promise<string> } } } => ({
    url: new URL(server.url),
    bearer: { authProvider: { token: async () => token } },
  });
  const stdio = { command: process.execPath, args: [APP_MAIN, '--stdio'], stderr: 'ignore' as const };

  const cases: [string, string, () => Promise<AnyClient>][] = [
    [
      'SDK 1.x',
      'HTTP',
      () => sdk1(new Http1(http().url, { requestInit: { headers: { authorization: `Bearer ${token}` } } })),
    ],
    ['SDK 1.x', 'stdio', () => sdk1(new Stdio1({ ...stdio, env: serverEnv() }))],
    [
      'client 2.4 pinned to 2026-07-28',
      'HTTP',
      () => sdk2(new Http2(http().url, http().bearer), { pin: '2026-07-28' }),
    ],
    [
      'client 2.4 pinned to 2026-07-28',
      'stdio',
      () => sdk2(new Stdio2({ ...stdio, env: serverEnv() }), { pin: '2026-07-28' }),
    ],
    ['client 2.4 in auto mode', 'HTTP', () => sdk2(new Http2(http().url, http().bearer), 'auto')],
    ['client 2.4 in auto mode', 'stdio', () => sdk2(new Stdio2({ ...stdio, env: serverEnv() }), 'auto')],
  ];

  it.each(cases.map(([who, over, open], i) => [who, over, open, i] as const))(
    '%s over %s: lists the tools, closes a ticket after the user confirms, looks an asset up',
    async (who, _over, open, i) => {
      const client = await open();
      try {
        expect(client.era).toBe(who === 'SDK 1.x' ? '2025-11-25' : '2026-07-28');
        expect(await client.listTools()).toEqual(
          expect.arrayContaining(['search_tickets', 'get_ticket', 'create_ticket', 'close_ticket']),
        );
        // Each case its own ticket (HTTP cases share one server; each stdio case starts its own).
        const id = `HD-${i + 1}`;
        const closed = await client.call('close_ticket', { id, resolution: 'Fixed during the interop test.' });
        expect(closed.isError).toBeFalsy();
        expect(closed.structuredContent).toMatchObject({ id, status: 'closed' });
        // Nothing beside the built app: it started its asset inventory itself, and calls it over its client.
        const asset = await client.call('get_asset', { tag: 'PH-3001' });
        expect(asset.isError).toBeFalsy();
        expect(asset.structuredContent).toMatchObject({ tag: 'PH-3001', kind: 'phone' });
      } finally {
        await client.close();
      }
    },
    60_000,
  );

  const skillCases: [string, string, () => Http2 | Stdio2][] = [
    ['2025-11-25', 'HTTP', () => new Http2(http().url, http().bearer)],
    ['2026-07-28', 'HTTP', () => new Http2(http().url, http().bearer)],
    ['2025-11-25', 'stdio', () => new Stdio2({ ...stdio, env: serverEnv() })],
    ['2026-07-28', 'stdio', () => new Stdio2({ ...stdio, env: serverEnv() })],
  ];

  it.each(skillCases)(
    'client 2.4 with its skills module, %s over %s: lists, gets and reads the skill (digests verify); reads the view',
    async (era, _over, transport) => {
      const mode = era === '2025-11-25' ? ('legacy' as const) : { pin: era };
      const client = new Client2({ name: 'helpdesk-skills', version: '2.4' }, { versionNegotiation: { mode } });
      await client.connect(transport());
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(era);
        const skills = new SkillsClient(client);
        const listing = await skills.list();
        expect(listing.skills.map((s) => s.uri)).toEqual(['skill://triage-ticket/SKILL.md']);
        const { skill } = await skills.get('skill://triage-ticket/SKILL.md');
        for (const file of [undefined, 'references/priorities.md']) {
          const read = file ? await skills.read(skill, file) : await skills.read(skill);
          expect(read.verified).toBe(true);
        }
        const view = await client.readResource({ uri: 'ui://helpdesk/triage-board' });
        expect(view.contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app' });
        expect((view.contents[0] as { text: string }).text).toMatch(/^<!doctype html>[\s\S]*<script type="module">/i);
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});
