#!/usr/bin/env node
// `npm run token -- [--app <name>] [--scope "tickets:read tickets:write"] [--ttl 3600] [--sub alice]`: mints a
// token from the local development issuer's key (.mcp-dev/issuer-key.json, written when the server first starts
// without an issuer configured; it names the app that last served, the default audience). Development only:
// production tokens come from the corporate issuer.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SignJWT, importJWK } from 'jose';

const USAGE = `Usage: npm run token -- [--app <service>] [--scope "tickets:read tickets:write"] [--ttl 3600] [--sub alice]
  --app    the service the token is for (the name given to McpModule.forRoot); default: the app that last served
  --scope  space-separated scopes (default "*": every scope)
  --ttl    lifetime in seconds, 1..604800 (default 28800)
  --sub    the token's subject (default dev-user)`;
let values;
try {
  ({ values } = parseArgs({
    options: {
      scope: { type: 'string', default: '*' },
      ttl: { type: 'string', default: '28800' },
      sub: { type: 'string', default: 'dev-user' },
      // The MCP service name (McpModule's `name`) the token is for; default the app that last served.
      app: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  // An unknown option or a missing value: one line and the usage, not a stack trace.
  console.error(`${error.message}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const file = resolve(process.cwd(), '.mcp-dev', 'issuer-key.json');
let stored;
try {
  stored = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  console.error(`No development key at ${file}: start the server once (npm start) without MCP_JWKS_URI, then retry.`);
  process.exit(2);
}
const ttl = Number(values.ttl);
if (!Number.isInteger(ttl) || ttl < 1 || ttl > 7 * 86400) {
  console.error('--ttl must be 1..604800 seconds');
  process.exit(2);
}
const key = await importJWK(stored.privateJwk, 'RS256');
const token = await new SignJWT({ scope: values.scope })
  .setProtectedHeader({ alg: 'RS256', kid: stored.privateJwk.kid, typ: 'JWT' })
  .setIssuer(stored.issuer)
  .setAudience(values.app ? `mcp:${values.app}` : stored.audience)
  .setSubject(values.sub)
  .setIssuedAt()
  .setExpirationTime(`${ttl}s`)
  .sign(key);
process.stdout.write(`${token}\n`);
