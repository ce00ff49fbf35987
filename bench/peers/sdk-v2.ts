// Peer: the official SDK v2 (`@modelcontextprotocol/server`) as its serving guide sets it up: `createMcpHandler`
// over a factory that builds a fresh `McpServer` per request, mounted on plain `node:http` with `toNodeHandler` and
// the `localhostHostValidation` / `localhostOriginValidation` guards in front (`@modelcontextprotocol/node`).
// Defaults throughout: 2026-07-28 requests served statelessly with JSON answers (`responseMode: 'auto'`), 2025-era
// requests by the stateless legacy fallback (`legacy: 'stateless'`).
import { createServer } from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { fail, listen, registerPeerTools } from './catalog';

const handler = createMcpHandler(() => {
  return registerPeerTools(new McpServer({ name: 'bench-peer-sdk-v2', version: '1.0.0' }));
});

const nodeHandler = toNodeHandler(handler);
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();
const server = createServer((req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  void nodeHandler(req, res);
});
listen(server, async () => {
  await handler.close();
  await new Promise((ok) => server.close(ok));
}).catch(fail);
