import { Inject, Injectable } from '@nestjs/common';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidParamsError, UpstreamUnavailableError } from '../errors/mcp.error';
import { MCP_KEY_STORE, McpKeyStore } from '../stores/key.store';

/** What a sealed `requestState` binds: who, which request, until when, and the answers gathered so far. @internal */
export interface RequestStateBinding {
  /** The caller's budget subject (its token's subject, or the anonymous source). */
  principal: string;
  method: string;
  /** Tool or prompt name, or resource URI. */
  target: string;
  /** The request's arguments, digested: a state is refused on a request that asks something else. */
  arguments: unknown;
}

interface Sealed {
  v: 1;
  p: string;
  m: string;
  t: string;
  d: string;
  exp: number;
  a: Record<string, unknown>;
  /** Keys of every question asked so far: only answers to these are taken from a retry's `inputResponses`. */
  q: string[];
}

/** What a valid state carries: the answers gathered so far and the keys of the questions asked. @internal */
export interface OpenedRequestState {
  answers: Record<string, unknown>;
  asked: string[];
}

const DEFAULT_TTL_MS = 10 * 60_000;

/**
 * `requestState` of multi round-trip requests: the answers a call has gathered, HMAC-SHA256-sealed with a key every
 * replica shares (`MCP_REQUEST_STATE_SECRET`, else one the key store creates: per process in memory, shared in Redis),
 * bound to the caller, the method, the target and a digest of the arguments, and expiring after
 * `ttlMs`. The server keeps nothing: any replica can take the retry. A state that fails any check is `-32602`.
 * It does not make a state single-use (the specification says so too): tools that must not act twice write their
 * own guard (see docs/protocol-eras.md, "Multi round-trip requests"). Sealed, not encrypted: it holds only what the
 * client itself sent (its answers) or was told (its subject, the question keys), and goes back only to that client.
 * @internal
 */
@Injectable()
export class RequestStateCodec {
  private readonly ttlMs = DEFAULT_TTL_MS;
  private readonly configured: Buffer | undefined;

  constructor(@Inject(MCP_KEY_STORE) private readonly keys: McpKeyStore) {
    const secret = process.env.MCP_REQUEST_STATE_SECRET;
    if (secret !== undefined && secret.length < 32)
      throw new Error('MCP_REQUEST_STATE_SECRET must be at least 32 characters (it keys an HMAC-SHA256)');
    this.configured = secret ? Buffer.from(secret) : undefined;
  }

  async seal(
    binding: RequestStateBinding,
    answers: Record<string, unknown>,
    asked: string[],
    now = Date.now(),
  ): Promise<string> {
    const key = await this.key();
    const body: Sealed = {
      v: 1,
      p: binding.principal,
      m: binding.method,
      t: binding.target,
      d: digest(binding.arguments),
      exp: now + this.ttlMs,
      a: answers,
      q: asked,
    };
    const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${payload}.${mac(key, payload)}`;
  }

  /** The answers and questions a valid state carries for this request; throws `-32602` for any state that is not. */
  async open(state: unknown, binding: RequestStateBinding, now = Date.now()): Promise<OpenedRequestState> {
    if (typeof state !== 'string' || state.length > 1_048_576) throw refused('requestState must be a string');
    const [payload, tag, extra] = state.split('.');
    if (!payload || !tag || extra !== undefined) throw refused('requestState is malformed');
    const expected = Buffer.from(mac(await this.key(), payload));
    const given = Buffer.from(tag);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw refused('requestState failed its integrity check');
    let body: Sealed;
    try {
      body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Sealed;
    } catch {
      throw refused('requestState is malformed');
    }
    if (body.v !== 1 || body.exp < now) throw refused('requestState has expired; call again without it');
    if (body.p !== binding.principal) throw refused('requestState belongs to another caller');
    if (body.m !== binding.method || body.t !== binding.target || body.d !== digest(binding.arguments))
      throw refused('requestState belongs to another request');
    return {
      answers: typeof body.a === 'object' && body.a !== null ? body.a : {},
      asked: Array.isArray(body.q) ? body.q.filter((k): k is string => typeof k === 'string') : [],
    };
  }

  private async key(): Promise<Buffer> {
    if (this.configured) return this.configured;
    try {
      return await this.keys.sharedKey('request-state');
    } catch {
      throw new UpstreamUnavailableError('Unavailable: the key store cannot be reached; retry shortly');
    }
  }
}

const mac = (key: Buffer, payload: string): string => createHmac('sha256', key).update(payload).digest('base64url');

function digest(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('base64url');
}

const refused = (why: string) =>
  new InvalidParamsError(`Invalid params: ${why}`, { field: 'requestState', reason: 'invalid' });
