#!/usr/bin/env node
// `npm run env:generate [-- --force] [-- --out <file>]`: writes the secrets docker-compose.yml requires to .env at
// the repository root, fresh from node:crypto, readable by its owner only (0600). docker-compose.yml has no default
// for any of them, so `docker-compose up` stops with a one-line message naming this command until .env exists.
//
// `--kubernetes` writes the keys of the Kubernetes Secret `mcp-server` instead (default .env.kubernetes; `--tls`
// for a rediss:// URL): `kubectl create secret generic mcp-server --from-env-file=.env.kubernetes` (docs/deploying.md).
//
// Beyond the stack's own secrets, every other variable docker-compose.yml requires with the message naming this
// command (`${NAME:?no .env: run npm run env:generate}`: the key of a service an app adds, such as a sidecar) gets a
// fresh value too, so that an app's services need no change here.
//
// It never overwrites an existing file (a running stack keeps working with the secrets it started with) unless
// --force. Both names are git-ignored. The values are hex: safe in a URL (REDIS_URL), an env file and YAML unquoted.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let values;
try {
  ({ values } = parseArgs({
    options: {
      force: { type: 'boolean', default: false },
      kubernetes: { type: 'boolean', default: false },
      tls: { type: 'boolean', default: false },
      out: { type: 'string' },
    },
  }));
} catch (e) {
  fail(`${e.message}\nusage: npm run env:generate -- [--force] [--out <file>] [--kubernetes [--tls]]`);
}
if (values.tls && !values.kubernetes) fail('--tls applies to --kubernetes only (the compose Redis has no TLS)');

/** 32 random bytes: 256 bits, 64 hex characters (MCP_REQUEST_STATE_SECRET needs 32 or more). */
const secret = () => randomBytes(32).toString('hex');
const redisPassword = secret();

const COMPOSE = [
  ['# docker-compose.yml secrets, written by `npm run env:generate`. Never commit this file.'],
  ['# The Keycloak admin console (http://localhost:8081), user admin.'],
  ['KEYCLOAK_ADMIN_PASSWORD', secret()],
  ['# The client secret of mcp-client in the realm (deploy/compose/keycloak-realm.json reads it at import).'],
  ['MCP_CLIENT_SECRET', secret()],
  ['# Redis requires it (--requirepass); the replicas send it in REDIS_URL, the exporter and healthcheck too.'],
  ['REDIS_PASSWORD', redisPassword],
  ['# Seals multi round-trip request states: kept out of Redis, so reading Redis does not give it away.'],
  ['MCP_REQUEST_STATE_SECRET', secret()],
  ...appSecrets(),
];
const KUBERNETES = [
  ['# Keys of the Kubernetes Secret mcp-server, written by `npm run env:generate -- --kubernetes`. Never commit.'],
  ['#   kubectl -n <namespace> create secret generic mcp-server --from-env-file=<this file>'],
  ['# The in-cluster Redis requires it (deploy/kubernetes/base/redis.yaml); its exporter uses it too.'],
  ['REDIS_PASSWORD', redisPassword],
  ['# What the replicas connect with: the same password, the redis Service.'],
  ['REDIS_URL', `${values.tls ? 'rediss' : 'redis'}://:${redisPassword}@redis:6379`],
  ['# Seals multi round-trip request states: kept out of Redis, so reading Redis does not give it away.'],
  ['MCP_REQUEST_STATE_SECRET', secret()],
];

/** The other variables docker-compose.yml takes from .env only, in the order it first names them. */
function appSecrets() {
  const file = resolve(root, 'docker-compose.yml');
  if (!existsSync(file)) return [];
  const stack = ['KEYCLOAK_ADMIN_PASSWORD', 'MCP_CLIENT_SECRET', 'REDIS_PASSWORD', 'MCP_REQUEST_STATE_SECRET'];
  const required = readFileSync(file, 'utf8').matchAll(/\$\{(\w+):\?no \.env: run npm run env:generate\}/g);
  const names = [...new Set([...required].map((m) => m[1]))].filter((name) => !stack.includes(name));
  if (names.length === 0) return [];
  return [
    ['# Required by services of the apps in docker-compose.yml (see the comment beside each there).'],
    ...names.map((n) => [n, secret()]),
  ];
}

const lines = values.kubernetes ? KUBERNETES : COMPOSE;
const out = resolve(values.out ?? resolve(root, values.kubernetes ? '.env.kubernetes' : '.env'));
const text = lines.map(([key, value]) => (value === undefined ? key : `${key}=${value}`)).join('\n') + '\n';
const near = relative(process.cwd(), out);
const shown = near && !near.startsWith('..') ? near : out;

if (values.force) {
  // A new file renamed over the old one: the secrets are never in a file others can read, even for a moment.
  const temp = `${out}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
    chmodSync(temp, 0o600); // the umask may only have removed bits; make the mode exact
    renameSync(temp, out);
  } catch (e) {
    rmSync(temp, { force: true });
    fail(`could not write ${shown}: ${e.message}`);
  }
} else {
  try {
    writeFileSync(out, text, { mode: 0o600, flag: 'wx' });
    chmodSync(out, 0o600);
  } catch (e) {
    if (e.code === 'EEXIST') {
      const then = values.kubernetes
        ? 'then replace the Secret and restart Redis and the replicas'
        : 'then recreate the stack (docker-compose up --force-recreate)';
      fail(`${shown} exists: keeping it (what runs uses its secrets). Add --force to replace every secret, ${then}.`);
    }
    fail(`could not write ${shown}: ${e.message}`);
  }
}
const keys = lines.filter(([, value]) => value !== undefined).map(([key]) => key);
console.log(`wrote ${shown} (mode 0600) with fresh ${keys.join(', ')}`);

function fail(message) {
  console.error(`env:generate: ${message}`);
  process.exit(1);
}
