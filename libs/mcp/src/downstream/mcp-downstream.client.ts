import { Logger, OnModuleDestroy } from '@nestjs/common';
import { BrokenCircuitError, BulkheadRejectedError, TaskCancelledError } from 'cockatiel';
import { DownstreamCredentials } from './credentials/downstream-credentials.interface';
import { ResolvedDownstreamOptions } from './downstream-options.resolver';
import { DownstreamCall, currentDownstreamCall } from './downstream-deadline';
import { DownstreamServerError } from './downstream.errors';
import { DownstreamPolicies, PolicyOutcome } from './downstream.policies';
import { DownstreamRequest, DownstreamRequestOptions, DownstreamResponse, encodeBody } from './downstream.response';
import { startClientSpan } from './downstream.trace';
import { DownstreamTransport, RawAnswer, ResponseTooLargeError } from './downstream.transport';
import { resolveDownstreamUrl } from './downstream-url';
import { findCallerToken } from './passthrough.guard';
import { isRetrySafe, retryDelay } from './retry-decision';
import { mapUpstreamStatus, noAnswer, retryAfterSeconds } from './upstream-error.mapper';
import { upstreamText } from './upstream-text';
import { enableCallScope, noteDownstream } from '../pipeline/call-scope';
import { DownstreamMeter } from './downstream.metrics';

/** One attempt: its answer, or why there was none. */
interface Attempt extends PolicyOutcome {
  answer?: RawAnswer;
  error?: unknown;
}

/** One request being sent: what every attempt of it shares. */
interface Sending {
  method: string;
  url: URL;
  headers: Record<string, string>;
  payload: string | Buffer | undefined;
  safe: boolean;
  call: DownstreamCall;
}

const METHOD = /^[A-Z]{3,10}$/;

/**
 * The client of one downstream service, injected with `@InjectDownstream(name)`. Each request runs within the
 * current call's deadline and is aborted when the call is cancelled (found without passing the call's context),
 * carries the downstream's own credentials (never the caller's token: a request that would is refused), is retried
 * when that is safe, goes through the downstream's circuit breaker, and fails with the error the corporate mapping
 * gives its upstream status (docs/downstream.md).
 *
 * @example
 * constructor(@InjectDownstream('jira') private readonly jira: McpDownstreamClient) {}
 * const issue = await this.jira.get<{ key: string }>(`issue/${key}`);
 */
export class McpDownstreamClient implements OnModuleDestroy {
  private readonly logger = new Logger('McpDownstream');
  private readonly transport: DownstreamTransport;
  private readonly policies: DownstreamPolicies;

  constructor(
    private readonly options: ResolvedDownstreamOptions,
    private readonly credentials: DownstreamCredentials | undefined,
    private readonly meter: DownstreamMeter = new DownstreamMeter(options.name, undefined),
  ) {
    // Built at boot: from now on every call carries the scope this client reads its deadline and caller from.
    enableCallScope();
    this.transport = new DownstreamTransport(options.baseUrl.origin, options.maxConcurrent, options.maxResponseBytes);
    this.policies = new DownstreamPolicies(options);
    meter.watchBreaker(() => this.policies.breakerState);
  }

  /** The health path the readiness check asks, when its `readiness` option gives one. @internal */
  get healthUrl(): URL | undefined {
    return this.options.readiness?.health;
  }

  /**
   * For the downstream's readiness check: false while its credentials' issuer cannot be reached and no token is
   * usable (always true without token credentials).
   * @internal
   */
  issuerReachable(signal: AbortSignal): Promise<boolean> {
    return this.credentials?.issuerReachable?.(signal) ?? Promise.resolve(true);
  }

  /** The downstream's configured name. */
  get name(): string {
    return this.options.name;
  }

  /** The circuit breaker's state: `closed`, `open` or `half-open`. */
  get breakerState(): 'closed' | 'open' | 'half-open' {
    return this.policies.breakerState;
  }

  /** GET `path`: parsed JSON, text, or undefined for an empty body. */
  async get<T = unknown>(path: string, options?: DownstreamRequestOptions): Promise<T> {
    return (await this.request({ ...options, method: 'GET', path })).parsed<T>();
  }

  /** POST `body` to `path` (retried only with `idempotencyKey`). */
  async post<T = unknown>(path: string, body?: unknown, options?: DownstreamRequestOptions): Promise<T> {
    return (await this.request({ ...options, method: 'POST', path, body })).parsed<T>();
  }

  /** PUT `body` to `path`. */
  async put<T = unknown>(path: string, body?: unknown, options?: DownstreamRequestOptions): Promise<T> {
    return (await this.request({ ...options, method: 'PUT', path, body })).parsed<T>();
  }

  /** PATCH `path` with `body` (retried only with `idempotencyKey`). */
  async patch<T = unknown>(path: string, body?: unknown, options?: DownstreamRequestOptions): Promise<T> {
    return (await this.request({ ...options, method: 'PATCH', path, body })).parsed<T>();
  }

  /** DELETE `path`. */
  async delete<T = unknown>(path: string, options?: DownstreamRequestOptions): Promise<T> {
    return (await this.request({ ...options, method: 'DELETE', path })).parsed<T>();
  }

  /** Sends one request (with its retries); resolves with an answer below 400, rejects with a downstream error. */
  async request(request: DownstreamRequest): Promise<DownstreamResponse> {
    const method = String(request.method ?? '').toUpperCase();
    if (!METHOD.test(method)) throw new Error(`downstream "${this.name}": "${request.method}" is not an HTTP method`);
    const url = resolveDownstreamUrl(this.options.baseUrl, request.path, request.query);
    // The call's log entry and audit event name the downstreams it used.
    noteDownstream(this.options.name);
    const call = currentDownstreamCall(this.options.timeoutMs);
    const { payload, type } = encodeBody(request.body);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = String(value);
    if (type && !headers['content-type']) headers['content-type'] = type;
    if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
    if (call.requestId && !headers['x-request-id']) headers['x-request-id'] = call.requestId;
    this.refusePassthrough(call, headers, url, method);
    const sending: Sending = { method, url, headers, payload, safe: isRetrySafe(method, request.idempotencyKey), call };
    const started = Date.now();
    let tries = 0;
    let last: Attempt;
    try {
      // The call's signal also ends a wait for a place in the bulkhead.
      last = await this.policies.bulkhead.execute(
        () =>
          this.policies.retry.execute(({ attempt }) => {
            tries = attempt + 1;
            const run = () => this.attempt(sending, attempt);
            return this.policies.breaker ? this.policies.breaker.execute(run) : run();
          }, call.signal),
        call.signal,
      );
    } catch (error) {
      throw this.refusedBeforeSending(error, sending);
    }
    return this.settle(last, sending, tries, Date.now() - started);
  }

  /**
   * One attempt through the breaker: never rejects for a missing answer, so that the policies can weigh it. What
   * rejects (a refused passthrough, credentials that could not be had) ends the request at once, uncounted.
   */
  private async attempt(sending: Sending, retriesDone: number): Promise<Attempt> {
    const { call } = sending;
    if (call.signal.aborted) return { error: call.signal.reason, failed: false, retryInMs: undefined };
    if (retriesDone > 0) this.meter.retried();
    let { answer, error } = await this.exchange(sending, await this.headersFor(sending), retriesDone);
    if (answer?.status === 401 && this.credentials?.invalidate) {
      // A cached token the downstream no longer takes: forget it, and try once more with a fresh one.
      await this.credentials.invalidate(call);
      ({ answer, error } = await this.exchange(sending, await this.headersFor(sending), retriesDone));
    }
    const cancelled = call.callSignal?.aborted === true;
    const status = answer?.status;
    const end = { status, retryAfter: retryAfterSeconds(answer?.headers['retry-after']), stopped: call.signal.aborted };
    return {
      answer,
      error,
      failed: (answer === undefined && !cancelled) || (status !== undefined && status >= 500),
      retryInMs: retryDelay(end, retriesDone, sending.safe, this.options.retry, call.deadline),
    };
  }

  /** The request's headers with the credentials' own, checked once more for the caller's token. */
  private async headersFor(sending: Sending): Promise<Record<string, string>> {
    const own = this.credentials ? await this.credentials.headers(sending.call) : {};
    const headers = { ...sending.headers };
    for (const [name, value] of Object.entries(own)) headers[name.toLowerCase()] = value;
    this.refusePassthrough(sending.call, headers, sending.url, sending.method);
    return headers;
  }

  /** One HTTP exchange under its client span: the answer, or the error that left none. */
  private async exchange(
    sending: Sending,
    headers: Record<string, string>,
    retriesDone: number,
  ): Promise<{ answer?: RawAnswer; error?: unknown }> {
    const { method, url } = sending;
    const span = startClientSpan(this.name, method, url, retriesDone);
    const started = performance.now();
    try {
      const path = url.pathname + url.search;
      const answer = await this.transport.send(
        method,
        path,
        { ...headers, ...span.headers },
        sending.payload,
        sending.call.signal,
      );
      span.end(answer.status);
      this.meter.attempt(answer.status, (performance.now() - started) / 1000);
      return { answer };
    } catch (error) {
      span.end(undefined, (error as { code?: string }).code ?? (error as Error).name);
      this.meter.attempt(undefined, (performance.now() - started) / 1000);
      return { error };
    }
  }

  /** The outcome of the last attempt, as the caller gets it. */
  private settle(last: Attempt, sending: Sending, tries: number, elapsedMs: number): DownstreamResponse {
    const { answer, error } = last;
    const line = `downstream "${this.name}" ${sending.method} ${sending.url.pathname}`;
    const after = `after ${tries} attempt(s) in ${elapsedMs} ms`;
    if (!answer) {
      if (error instanceof ResponseTooLargeError) {
        this.logger.warn(`${line}: answer over ${error.limit} bytes ${after}`);
        return this.fail(
          new DownstreamServerError(
            'The downstream service answered with too much data',
            this.name,
            undefined,
            'too_large',
          ),
        );
      }
      const why = sending.call.callSignal?.aborted
        ? 'the call was cancelled'
        : sending.call.signal.aborted
          ? `no answer before the deadline`
          : `connection failed (${(error as { code?: string })?.code ?? 'no answer'})`;
      this.logger.warn(`${line}: ${why} ${after}`);
      return this.fail(noAnswer(this.name, why));
    }
    if (answer.status < 400) return new DownstreamResponse(answer.status, answer.headers, answer.body, this.name);
    this.logger.warn(`${line} -> ${answer.status} ${after}`);
    const text = upstreamText(answer.body.toString('utf8'), answer.headers['content-type']);
    return this.fail(
      mapUpstreamStatus(this.name, {
        status: answer.status,
        text,
        retryAfter: retryAfterSeconds(answer.headers['retry-after']),
      }),
    );
  }

  private fail(error: Error): never {
    throw error;
  }

  /** The breaker open, the bulkhead full, or credentials that failed: the request was not sent. */
  private refusedBeforeSending(error: unknown, sending: Sending): unknown {
    const line = `downstream "${this.name}" ${sending.method} ${sending.url.pathname}`;
    if (error instanceof BrokenCircuitError) {
      this.logger.warn(`${line}: not sent, the circuit breaker is open`);
      return noAnswer(this.name, 'it is failing and is given time to recover; retry later');
    }
    if (error instanceof TaskCancelledError) {
      this.logger.warn(`${line}: not sent, the call ended while it waited for a place`);
      return noAnswer(this.name, 'the call ended before a request could be sent');
    }
    if (error instanceof BulkheadRejectedError) {
      this.logger.warn(`${line}: not sent, ${this.options.maxConcurrent} requests in flight and as many waiting`);
      return noAnswer(this.name, 'too many requests to it are in flight; retry later');
    }
    return error;
  }

  /** Token passthrough is forbidden: a request carrying the caller's own token is never sent (logged without it). */
  private refusePassthrough(call: DownstreamCall, headers: Record<string, string>, url: URL, method: string): void {
    const where = findCallerToken(call.callerToken, headers, url.href);
    if (!where) return;
    this.logger.error(
      `downstream "${this.name}" ${method} ${url.pathname}: refused, ${where} carried the caller's own token (token passthrough is forbidden)`,
    );
    throw new DownstreamServerError(
      "Refused to call the downstream service with the caller's own token",
      this.name,
      undefined,
      'token_passthrough',
    );
  }

  /** Closes the connection pool when the app shuts down. */
  async onModuleDestroy(): Promise<void> {
    await this.transport.close();
  }
}
