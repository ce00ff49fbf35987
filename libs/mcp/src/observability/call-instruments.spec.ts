import { Counter, Histogram, Registry } from 'prom-client';
import { SeriesCounter, SeriesHistogram } from './call-instruments';

const BOUNDS = [0.01, 0.1, 1, 10];
const OP = { name: 'op_seconds', help: 'Duration.', labelNames: ['method'], buckets: BOUNDS };

/** A registry with the service's default label, as McpMetrics makes it. */
function registry(): Registry {
  const r = new Registry();
  r.setDefaultLabels({ service: 'desk' });
  return r;
}

describe('call instruments', () => {
  it("write the same Prometheus text as prom-client's Histogram and Counter for the same updates", async () => {
    const ours = registry();
    const theirs = registry();
    const histogram = new SeriesHistogram(
      { name: 'op_seconds', help: 'Duration.', labelNames: ['method', 'target', 'status'], buckets: BOUNDS },
      ours,
    );
    const counter = new SeriesCounter({ name: 'calls_total', help: 'Calls.', labelNames: ['tool', 'status'] }, ours);
    const reference = new Histogram({
      name: 'op_seconds',
      help: 'Duration.',
      labelNames: ['method', 'target', 'status'],
      buckets: BOUNDS,
      registers: [theirs],
    });
    const referenceCounter = new Counter({
      name: 'calls_total',
      help: 'Calls.',
      labelNames: ['tool', 'status'],
      registers: [theirs],
    });
    const updates: [string, string, string, number][] = [
      ['tools/call', 'echo', 'ok', 0.004],
      ['tools/call', 'echo', 'ok', 0.01],
      ['tools/call', 'echo', 'ok', 0.5],
      ['tools/call', 'say "hi"\\', 'tool_error', 42],
      ['prompts/get', '', 'ok', 0.05],
    ];
    for (const [method, target, status, seconds] of updates) {
      histogram.labels(method, target, status).observe(seconds);
      reference.labels(method, target, status).observe(seconds);
      if (method !== 'tools/call') continue;
      counter.labels(target, status).inc();
      referenceCounter.labels(target, status).inc();
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    // As JSON too, but for prom-client's exemplars (null or undefined on each value: these instruments have none).
    const json = async (r: Registry) =>
      JSON.parse(JSON.stringify(await r.getMetricsAsJSON(), (k, v: unknown) => (k === 'exemplar' ? undefined : v)));
    expect(await json(ours)).toEqual(await json(theirs));
  });

  it('keeps one series per label set, made on first use', () => {
    const histogram = new SeriesHistogram(OP, registry());
    const series = histogram.labels('ping');
    expect(histogram.labels('ping')).toBe(series);
    series.observe(0.2);
    series.observe(20);
    expect(series).toMatchObject({ count: 2, sum: 20.2, counts: [0, 0, 1, 0] });
  });

  it('ignores a value that is not a finite number rather than corrupting the series', () => {
    const series = new SeriesHistogram(OP, registry()).labels('ping');
    series.observe(Number.NaN);
    series.observe(Number.POSITIVE_INFINITY);
    expect(series).toMatchObject({ count: 0, sum: 0 });
  });

  it('is emptied by the registry, as its own instruments are', async () => {
    const r = registry();
    new SeriesCounter({ name: 'calls_total', help: 'Calls.', labelNames: ['tool'] }, r).labels('echo').inc();
    r.resetMetrics();
    expect(await r.metrics()).not.toContain('calls_total{');
  });
});
