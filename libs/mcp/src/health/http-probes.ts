import { describeFailure, redact } from '../errors/redact';

/** A probe's failure with a reason that is safe to log (no credentials, no query string). @internal */
export class ProbeFailure extends Error {}

/** `fetch`, with a network failure turned into a {@link ProbeFailure} naming the (redacted) URL. */
async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ProbeFailure(`${init.method ?? 'GET'} ${redact(url)} failed: ${describeFailure(error)}`);
  }
}

/**
 * JWKS readiness: a GET that must answer 2xx with a JSON object whose `keys` is a non-empty array
 * (without a key no token can be verified, so no tool can be served).
 * @internal
 */
export async function probeJwks(url: string, signal: AbortSignal): Promise<void> {
  const res = await send(url, { headers: { accept: 'application/json' }, signal });
  if (!res.ok) {
    await res.body?.cancel();
    throw new ProbeFailure(`GET ${redact(url)} answered HTTP ${res.status}`);
  }
  const body = (await res.json().catch(() => undefined)) as { keys?: unknown } | undefined;
  if (!body || typeof body !== 'object' || !Array.isArray(body.keys) || body.keys.length === 0) {
    throw new ProbeFailure(`GET ${redact(url)} answered without a non-empty "keys" array`);
  }
}

/**
 * Introspection readiness is reachability only: a POST without credentials or token must get an
 * HTTP answer below 500 (a 400 or 401 proves the endpoint is up; no client secret is sent).
 * @internal
 */
export async function probeIntrospection(url: string, signal: AbortSignal): Promise<void> {
  const res = await send(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    signal,
  });
  await res.body?.cancel();
  if (res.status >= 500) throw new ProbeFailure(`POST ${redact(url)} answered HTTP ${res.status}`);
}
