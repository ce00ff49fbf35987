import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What a server's sources say about the requests it can make to other services. */
export interface OutboundScan {
  /** Source files read (specs, tests and build output left out). */
  files: number;
  /** `file: what` for each way to make a request outside a downstream client. */
  clients: string[];
  /** `name (file)` for each downstream client declared (`McpDownstreamModule.register` / `registerAsync`). */
  downstreams: string[];
}

/** Modules whose only use is making requests (or opening connections) to other services. */
const CLIENT_MODULES = [
  'undici',
  'axios',
  '@nestjs/axios',
  'node-fetch',
  'cross-fetch',
  'isomorphic-fetch',
  'got',
  'ky',
  'superagent',
  'needle',
  'request',
  'node:net',
  'net',
  'node:tls',
  'tls',
];
/** Node's HTTP modules also serve: only their client half counts. */
const HTTP_MODULES = ['node:http', 'http', 'node:https', 'https', 'node:http2', 'http2'];
const HTTP_CLIENT_NAMES = new Set(['request', 'get', 'Agent', 'ClientRequest', 'connect', 'globalAgent']);
const GLOBAL_CLIENTS: [RegExp, string][] = [
  [/(?:^|[^\w$.])fetch\s*\(/, 'fetch('],
  [/\bglobalThis\.fetch\s*\(/, 'globalThis.fetch('],
  [/\bnew\s+(?:XMLHttpRequest|WebSocket|EventSource)\s*\(/, 'a browser-style client'],
];
const SOURCE = /\.(?:[cm]?ts|[cm]?js)$/;
const NOT_SOURCE = /(?:\.spec|\.e2e-spec|\.test|\.d)\.[cm]?[jt]s$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'test', 'tests', '__tests__', 'coverage', 'views']);
const MAX_FILES = 5_000;

/**
 * Reads a server's sources (`<dir>/src` when there is one, else `<dir>`) for the requests they can make: imports of an
 * HTTP client library or of Node's HTTP client functions, and calls of the global `fetch`. A file that declares a
 * downstream client is where requests go through it; a readiness check (`@McpReadinessCheck`, and no tool in the
 * file) runs outside any call, where there is no caller's token to pass on. A static reading: it sees the sources
 * of the folder, not the libraries they import.
 */
export function scanOutboundHttp(dir: string): OutboundScan {
  const root = existsSync(join(dir, 'src')) ? join(dir, 'src') : dir;
  const scan: OutboundScan = { files: 0, clients: [], downstreams: [] };
  for (const file of sourceFiles(root)) {
    const name = relative(dir, file);
    const text = withoutComments(readFileSync(file, 'utf8'));
    scan.files++;
    for (const declared of downstreamNames(text)) scan.downstreams.push(`${declared} (${name})`);
    if (/@McpReadinessCheck\s*\(/.test(text) && !/@McpTool\s*\(/.test(text)) continue;
    for (const what of requestMakers(text)) scan.clients.push(`${name}: ${what}`);
  }
  return scan;
}

function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (out.length >= MAX_FILES) return;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(join(dir, entry.name));
      } else if (entry.isFile() && SOURCE.test(entry.name) && !NOT_SOURCE.test(entry.name)) {
        out.push(join(dir, entry.name));
      }
    }
  };
  if (existsSync(root)) walk(root);
  return out.sort();
}

/** Block comments and whole-line comments go (a URL's `//` inside a string stays). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/** One import: the module, the names taken from it, and the local name of a whole-module import (if known). */
interface Import {
  module: string;
  names: string[];
  whole?: string | null;
}

function imports(text: string): Import[] {
  const found: Import[] = [];
  for (const m of text.matchAll(/\bimport\s+(type\s+)?([\w$*{][\s\S]*?)\s+from\s+['"]([^'"]+)['"]/g)) {
    if (m[1]) continue;
    const clause = m[2].trim();
    const named = /\{([\s\S]*)\}/.exec(clause);
    const names = named
      ? named[1]
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n && !n.startsWith('type '))
          .map((n) => n.split(/\s+as\s+/)[0])
      : [];
    const whole = /\*\s+as\s+([\w$]+)/.exec(clause)?.[1] ?? /^([\w$]+)\s*(?:,|$)/.exec(clause)?.[1];
    found.push({ module: m[3], names, ...(whole ? { whole } : {}) });
  }
  // require() and import(): the binding is not followed, so the whole module counts.
  for (const m of text.matchAll(/\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)/g))
    found.push({ module: m[1], names: [], whole: null });
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push({ module: m[1], names: [] });
  return found;
}

function requestMakers(text: string): string[] {
  const said: string[] = [];
  for (const { module, names, whole } of imports(text)) {
    if (CLIENT_MODULES.includes(module)) said.push(`imports ${module}`);
    else if (HTTP_MODULES.includes(module)) {
      const named = names.filter((n) => HTTP_CLIENT_NAMES.has(n));
      if (named.length) said.push(`imports ${named.join(', ')} from ${module}`);
      // A whole-module import counts when its client functions are called (`http.request(`, `https.get(`).
      const calls = (binding: string) =>
        new RegExp(`(?:^|[^\\w$.])${binding.replace(/\$/g, '\\$')}\\.(?:request|get|connect|Agent)\\b`).test(text);
      if (whole === null) said.push(`requires ${module}`);
      else if (whole && calls(whole)) said.push(`calls ${whole}.request/get of ${module}`);
    }
  }
  // Not inside a quoted string: a page's script served to a browser (`'<script>fetch(…)'`) is not a server's call.
  const code = text.replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, "''");
  for (const [pattern, what] of GLOBAL_CLIENTS) if (pattern.test(code)) said.push(`calls ${what}`);
  return said;
}

function downstreamNames(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/McpDownstreamModule\.register(?:Async)?\s*\(/g)) {
    const after = text.slice(m.index! + m[0].length, m.index! + m[0].length + 400);
    names.push(/\bname\s*:\s*['"`]([^'"`]+)['"`]/.exec(after)?.[1] ?? '(unnamed)');
  }
  return names;
}
