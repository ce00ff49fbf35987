import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The environment the final stage of the repository's Dockerfile sets (ENV lines): where every container starts. */
export function imageEnvironment(): Record<string, string> {
  const text = readFileSync(resolve(__dirname, '../../Dockerfile'), 'utf8');
  const finalStage = text.slice(text.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const line of finalStage.split('\n').filter((l) => l.startsWith('ENV '))) {
    for (const pair of line.slice(4).trim().split(/\s+/)) {
      const [k, ...v] = pair.split('=');
      env[k] = v.join('=');
    }
  }
  return env;
}

/**
 * What a deployment file's environment changes into on this machine, where one process stands for a container:
 * loopback and ephemeral ports, the machine's Redis under a test's key prefix, a local JWKS issuer for the
 * identity provider and a local OTLP endpoint for the collector. Everything else stays as the file says.
 */
export function onThisMachine(standIns: {
  redisPrefix: string;
  jwksUri: string;
  otlpUrl: string;
}): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    PORT: '0',
    MCP_METRICS_PORT: '0',
    REDIS_URL: 'redis://127.0.0.1:6379',
    MCP_REDIS_PREFIX: standIns.redisPrefix,
    MCP_JWKS_URI: standIns.jwksUri,
    OTEL_EXPORTER_OTLP_ENDPOINT: standIns.otlpUrl,
  };
}
