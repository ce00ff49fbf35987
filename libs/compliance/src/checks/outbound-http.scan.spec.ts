import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { scanOutboundHttp } from './outbound-http.scan';
import { LIMITS_CHECKS } from './limits.checks';
import { CheckContext } from '../check-context';
import { HttpProbe } from '../http-probe';

describe('scanOutboundHttp (auth.no-passthrough)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'outbound-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const write = (files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
  };
  const DOWNSTREAM = `import { McpDownstreamModule } from '@app/mcp/downstream';
export const Jira = McpDownstreamModule.registerAsync({
  name: 'jira',
  useFactory: () => ({ baseUrl: process.env.JIRA_URL! }),
});
export const Wiki = McpDownstreamModule.register({ baseUrl: 'https://wiki.example/', name: "wiki" });`;

  it('finds no client where the sources call other services through downstream clients only, and names those', () => {
    write({
      'src/jira.module.ts': DOWNSTREAM,
      'src/jira.tools.ts': `import { InjectDownstream } from '@app/mcp/downstream';\n// fetch('https://elsewhere') in a comment\nexport class T { get() { return this.jira.get('issue/1'); } }`,
      // Serving is not calling: a test double or a sidecar of the app's own.
      'src/inventory.server.ts': `import { createServer, IncomingMessage, ServerResponse } from 'node:http';\nimport * as https from 'node:https';\nexport const s = createServer();\nexport const t = https.createServer();`,
      // Specs, tests and build output are not the server's sources.
      'src/jira.tools.spec.ts': `await fetch('http://127.0.0.1/');`,
      'test/app.e2e-spec.ts': `import axios from 'axios';`,
      'src/dist/x.js': `require('node-fetch')`,
      // A page served to a browser is not a call the server makes.
      'src/board.views.ts': `export const PAGE = '<script>fetch("https://api.example/board")</script>';`,
    });
    expect(scanOutboundHttp(dir)).toEqual({
      files: 4,
      clients: [],
      downstreams: ['jira (src/jira.module.ts)', 'wiki (src/jira.module.ts)'],
    });
  });

  it.each([
    [`import axios from 'axios';`, 'imports axios'],
    [`import { request } from 'undici';`, 'imports undici'],
    [`const got = require('got');`, 'imports got'],
    [`import { request as send } from 'node:https';`, 'imports request from node:https'],
    [`import * as http from 'http';\nhttp.get('http://x');`, 'calls http.request/get of http'],
    [`const http = require('node:http');`, 'requires node:http'],
    [`export const load = () => fetch(url, { headers });`, 'calls fetch('],
    [`await globalThis.fetch(url);`, 'calls globalThis.fetch('],
    [`const socket = new WebSocket(url);`, 'calls a browser-style client'],
  ])('names a request made outside a downstream client: %s', (source, what) => {
    write({ 'src/tools.ts': source });
    expect(scanOutboundHttp(dir).clients).toEqual([`src/tools.ts: ${what}`]);
  });

  it('leaves out a readiness check (no caller, so no token to pass on), not a tool in the same file', () => {
    const check = `@McpReadinessCheck('directory')\nexport class D { isHealthy() { return fetch(this.url); } }`;
    write({ 'src/health.indicator.ts': check, 'src/mixed.ts': `${check}\n@McpTool({ name: 'x' })` });
    expect(scanOutboundHttp(dir).clients).toEqual(['src/mixed.ts: calls fetch(']);
  });

  it('reads the folder itself when it has no src/', () => {
    write({ 'main.js': `const fetch = require('node-fetch');` });
    expect(scanOutboundHttp(dir)).toMatchObject({ files: 1, clients: ['main.js: imports node-fetch'] });
  });

  describe('the item', () => {
    const verdict = (options: { dir?: string }) =>
      LIMITS_CHECKS['auth.no-passthrough'](
        new CheckContext(new HttpProbe(new URL('http://127.0.0.1:9/mcp'), undefined), options),
        '2.0',
      );

    it('passes when the sources make requests through downstream clients only, naming them', async () => {
      write({ 'src/jira.module.ts': DOWNSTREAM });
      expect(await verdict({ dir })).toEqual({
        status: 'pass',
        evidence: [
          '1 source file read: no HTTP client outside downstream clients (which refuse to send the caller’s token)',
          'downstream clients: jira (src/jira.module.ts), wiki (src/jira.module.ts)',
        ],
      });
    });

    it('passes a server that calls no other service', async () => {
      write({ 'src/main.ts': `import { bootstrapMcpServer } from '@app/mcp';` });
      expect(await verdict({ dir })).toMatchObject({
        status: 'pass',
        evidence: [expect.any(String), 'no downstream client declared: the server calls no other service'],
      });
    });

    it('leaves it to the reviewer, naming the files, when a request is made elsewhere', async () => {
      write({ 'src/jira.module.ts': DOWNSTREAM, 'src/raw.tools.ts': `import axios from 'axios';` });
      expect(await verdict({ dir })).toEqual({
        status: 'manual',
        evidence: [
          '2 source files read: requests made outside a downstream client, which the reviewer reads for the caller’s token:',
          'src/raw.tools.ts: imports axios',
        ],
      });
    });

    it('is manual without --dir, or with a folder without sources', async () => {
      expect((await verdict({})).status).toBe('manual');
      write({ 'README.md': '# A server' });
      expect(await verdict({ dir })).toMatchObject({
        status: 'manual',
        evidence: [expect.stringContaining('no sources')],
      });
    });
  });
});
