import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** How a request attempt ended, as a metric label: the status class, or `none` when the service did not answer. */
export type DownstreamStatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'none';
/** The grant of a token acquisition, as a metric label. */
export type DownstreamGrant = 'client_credentials' | 'token_exchange';

/** The breaker gauge's value per state: one series per downstream, alertable with `> 0` or `== 2`. */
export const BREAKER_STATE_VALUE = { closed: 0, 'half-open': 1, open: 2 } as const;

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const CLASSES: readonly DownstreamStatusClass[] = ['2xx', '3xx', '4xx', '5xx', 'none'];

/** The downstream instruments of one registry, shared by every downstream of the app. */
class Instruments {
  readonly requests: Counter<'downstream' | 'status_class'>;
  readonly duration: Histogram<'downstream'>;
  readonly retries: Counter<'downstream'>;
  readonly tokens: Counter<'downstream' | 'grant' | 'outcome'>;
  /** Each downstream's breaker, read at scrape time (nothing to do on the hot path). */
  readonly breakers = new Map<string, () => keyof typeof BREAKER_STATE_VALUE>();

  constructor(registry: Registry) {
    const registers = [registry];
    this.requests = new Counter({
      name: 'mcp_downstream_requests_total',
      help: 'HTTP requests sent to a downstream (each attempt), by downstream and status class (none: no answer).',
      labelNames: ['downstream', 'status_class'],
      registers,
    });
    this.duration = new Histogram({
      name: 'mcp_downstream_request_duration_seconds',
      help: 'Duration of one HTTP request to a downstream (each attempt, answered or not), by downstream.',
      labelNames: ['downstream'],
      buckets: SECONDS,
      registers,
    });
    this.retries = new Counter({
      name: 'mcp_downstream_retries_total',
      help: 'Requests to a downstream sent again after a failed attempt, by downstream.',
      labelNames: ['downstream'],
      registers,
    });
    this.tokens = new Counter({
      name: 'mcp_downstream_token_acquisitions_total',
      help: 'Tokens asked of a downstream’s issuer by this replica (cache hits excluded), by grant and outcome.',
      labelNames: ['downstream', 'grant', 'outcome'],
      registers,
    });
    const breakers = this.breakers;
    new Gauge({
      name: 'mcp_downstream_breaker_state',
      help: 'Circuit breaker of a downstream on this replica: 0 closed, 1 half-open, 2 open.',
      labelNames: ['downstream'],
      registers,
      collect() {
        for (const [downstream, state] of breakers) this.set({ downstream }, BREAKER_STATE_VALUE[state()]);
      },
    });
  }
}

// One set per registry: every downstream module of an app registers on the same one, and a metric name twice throws.
const byRegistry = new WeakMap<Registry, Instruments>();

/**
 * What one downstream reports to Prometheus (the app's registry, `McpMetrics.registry`): its requests by status
 * class, their durations, its retries, its breaker's state and its token acquisitions. The label children are made
 * once, here, so an attempt costs a counter increment and a histogram observation. Labels are the configured name
 * and fixed words, never client input. Without a registry (no McpModule: a unit test), every method does nothing.
 * @internal
 */
export class DownstreamMeter {
  private readonly requests?: Record<DownstreamStatusClass, Counter.Internal>;
  private readonly duration?: Histogram.Internal<'downstream'>;
  private readonly retries?: Counter.Internal;
  private readonly tokens = new Map<string, Counter.Internal>();
  private readonly instruments?: Instruments;

  constructor(
    private readonly downstream: string,
    registry: Registry | undefined,
  ) {
    if (!registry) return;
    let instruments = byRegistry.get(registry);
    if (!instruments) byRegistry.set(registry, (instruments = new Instruments(registry)));
    this.instruments = instruments;
    const requests = instruments.requests;
    // Every series exists from boot, at 0: a rate or an alert on it needs no first failure to start from.
    this.requests = Object.fromEntries(CLASSES.map((c) => [c, zero(requests.labels(downstream, c))])) as Record<
      DownstreamStatusClass,
      Counter.Internal
    >;
    this.duration = instruments.duration.labels(downstream);
    this.retries = zero(instruments.retries.labels(downstream));
  }

  /** One attempt ended: its status (undefined when there was no answer) and how long it took. */
  attempt(status: number | undefined, seconds: number): void {
    this.requests?.[statusClass(status)].inc();
    this.duration?.observe(seconds);
  }

  /** An attempt after the first. */
  retried(): void {
    this.retries?.inc();
  }

  /** The breaker's state, read when Prometheus scrapes. */
  watchBreaker(state: () => keyof typeof BREAKER_STATE_VALUE): void {
    this.instruments?.breakers.set(this.downstream, state);
  }

  /** The issuer was asked for a token (not a cache hit), and answered one or not. */
  readonly tokenAcquired = (grant: DownstreamGrant, outcome: 'ok' | 'failed'): void => {
    if (!this.instruments) return;
    const key = `${grant}:${outcome}`;
    let child = this.tokens.get(key);
    if (!child) this.tokens.set(key, (child = this.instruments.tokens.labels(this.downstream, grant, outcome)));
    child.inc();
  };
}

const zero = (counter: Counter.Internal): Counter.Internal => (counter.inc(0), counter);

/** `2xx` ... `5xx` for an answer (anything past 5xx counts as 5xx), `none` when there was none. */
export function statusClass(status: number | undefined): DownstreamStatusClass {
  if (status === undefined) return 'none';
  return status < 300 ? '2xx' : status < 400 ? '3xx' : status < 500 ? '4xx' : '5xx';
}
