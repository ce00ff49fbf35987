import type { Registry } from 'prom-client';

/** A series' labels, by label name. */
type Labels = Record<string, string>;
/** One value of an instrument as prom-client's registry reads it (what its own instruments' `get()` return). */
interface ExportedValue {
  labels: Record<string, string | number>;
  /** The series' own labels, written after `labels` and the registry's defaults (how prom-client's histogram does). */
  sharedLabels?: Labels;
  value: number;
  metricName?: string;
}

interface Exported {
  name: string;
  help: string;
  type: string;
  values: ExportedValue[];
  aggregator: string;
}

/** An instrument's description, as prom-client's configuration spells it. */
interface SeriesOptions {
  name: string;
  help: string;
  labelNames: readonly string[];
}

/**
 * The two instruments every MCP request updates (`mcp_server_operation_duration_seconds`, `mcp_tool_calls_total`),
 * kept as plain numbers per series and registered in the service's prom-client registry, which writes them out with
 * everything else. prom-client's own children look their series up again on each update (the label object checked
 * and turned into a key string): measured at about 3% of what the whole stack costs a fast call. A series here is
 * found once, by the caller, which keeps it; an update is an addition. The exposition is prom-client's, the same
 * text as its Counter and Histogram give (checked in the spec against them).
 */
abstract class SeriesInstrument<S> {
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly labelNames: readonly string[];
  private readonly series = new Map<string, S>();

  constructor(options: SeriesOptions, registry: Registry) {
    ({ name: this.name, help: this.help, labelNames: this.labelNames } = options);
    // Not one of prom-client's classes, but what its registry reads of one (name, help, type, get, reset).
    registry.registerMetric(this as never);
  }

  abstract readonly type: 'counter' | 'histogram';
  protected abstract create(labels: Labels): S;
  protected abstract export(series: S): ExportedValue[];

  /** The series of these label values (in `labelNames` order), made on first use: keep it, as prom-client's child. */
  labels(...values: string[]): S {
    const key = values.join('\u0000');
    let found = this.series.get(key);
    if (!found) {
      const labels: Labels = {};
      this.labelNames.forEach((name, i) => (labels[name] = values[i]));
      this.series.set(key, (found = this.create(labels)));
    }
    return found;
  }

  /** What the registry writes as text: a histogram's series labels as prom-client's own histogram gives them. */
  getForPromString(): Promise<Exported> {
    return Promise.resolve(this.exported([...this.series.values()].flatMap((s) => this.export(s))));
  }

  /** What the registry gives as JSON: every label of a value in `labels`. */
  get(): Promise<Exported> {
    const values = [...this.series.values()]
      .flatMap((s) => this.export(s))
      .map(({ labels, sharedLabels, ...value }) => ({ ...value, labels: { ...labels, ...sharedLabels } }));
    return Promise.resolve(this.exported(values));
  }

  private exported(values: ExportedValue[]): Exported {
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.series.clear();
  }
}

/** A counter series: `inc()` adds one. @internal */
export class CounterSeries {
  value = 0;
  constructor(readonly labels: Labels) {}
  inc(): void {
    this.value++;
  }
}

/** A Prometheus counter whose series are kept by their callers. @internal */
export class SeriesCounter extends SeriesInstrument<CounterSeries> {
  readonly type = 'counter';
  protected create(labels: Labels): CounterSeries {
    return new CounterSeries(labels);
  }
  protected export(s: CounterSeries): ExportedValue[] {
    return [{ labels: { ...s.labels }, value: s.value }];
  }
}

/** A histogram series: `observe(v)` counts `v` in the first bucket it fits (none past the last bound). @internal */
export class HistogramSeries {
  readonly counts: number[];
  sum = 0;
  count = 0;
  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = bounds.map(() => 0);
  }
  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    this.sum += value;
    this.count++;
    const { bounds } = this;
    for (let i = 0; i < bounds.length; i++)
      if (value <= bounds[i]) {
        this.counts[i]++;
        return;
      }
  }
}

/** A Prometheus histogram whose series are kept by their callers. @internal */
export class SeriesHistogram extends SeriesInstrument<HistogramSeries> {
  readonly type = 'histogram';
  private readonly bounds: readonly number[];
  constructor(options: SeriesOptions & { buckets: readonly number[] }, registry: Registry) {
    super(options, registry);
    this.bounds = options.buckets;
  }
  protected create(labels: Labels): HistogramSeries {
    return new HistogramSeries(labels, this.bounds);
  }
  protected export(s: HistogramSeries): ExportedValue[] {
    const bucket = `${this.name}_bucket`;
    let cumulative = 0;
    const sharedLabels = s.labels;
    const values: ExportedValue[] = this.bounds.map((le, i) => ({
      labels: { le },
      sharedLabels,
      value: (cumulative += s.counts[i]),
      metricName: bucket,
    }));
    values.push(
      { labels: { le: '+Inf' }, sharedLabels, value: s.count, metricName: bucket },
      { labels: {}, sharedLabels, value: s.sum, metricName: `${this.name}_sum` },
      { labels: {}, sharedLabels, value: s.count, metricName: `${this.name}_count` },
    );
    return values;
  }
}
