import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eachApp } from '../support/apps';
import { COMPOSE_DIR, ROOT, composeConfig, environment, mountedFile, parseYaml } from '../support/compose-config';
import { K8sResource, checkKustomization, find } from '../support/kubernetes';
import { podOf } from '../support/kubernetes-pods';

/**
 * The alert rules on the stores (deploy/compose/alerts.yml, and the same groups as a PrometheusRule in
 * deploy/kubernetes/monitoring): Prometheus's own promtool validates the compose configuration and the rules, and
 * runs them on made-up series (each alert fires when it should and not before); every metric a rule reads is one
 * the library or the Redis exporter exposes, and both deployments scrape them.
 */
interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}
const RULES_FILE = resolve(COMPOSE_DIR, 'alerts.yml');
const groups = (parseYaml(readFileSync(RULES_FILE, 'utf8')) as { groups: { name: string; rules: Rule[] }[] }).groups;
const rules = groups.flatMap((g) => g.rules);
const rule = (name: string): Rule => rules.find((r) => r.alert === name)!;

/** The metrics the library registers (their names in mcp-metrics.service.ts; a histogram adds _count and others). */
function libraryMetrics(): string[] {
  const source = readFileSync(resolve(ROOT, 'libs/mcp/src/observability/mcp-metrics.service.ts'), 'utf8');
  const names = [...source.matchAll(/name: '(mcp_\w+)'/g)].map((m) => m[1]);
  return names.flatMap((n) => (n.endsWith('_seconds') ? [n, `${n}_count`, `${n}_sum`, `${n}_bucket`] : [n]));
}
/** The Redis exporter's metrics the rules read (redis_exporter: INFO used_memory, maxmemory, errorstats; up). */
const EXPORTER_METRICS = ['redis_memory_used_bytes', 'redis_memory_max_bytes', 'redis_errors_total', 'redis_up'];

describe('alert rules on the stores', () => {
  it('warn on Redis memory near maxmemory, refused writes, Redis down and store errors of the server', () => {
    expect(rules.map((r) => r.alert).sort()).toEqual([
      'McpRedisDown',
      'McpRedisMemoryNearLimit',
      'McpRedisRefusingWrites',
      'McpStoreUnavailable',
    ]);
    for (const r of rules) {
      expect(['warning', 'critical']).toContain(r.labels.severity);
      expect(r.annotations.summary).toBeTruthy();
      expect(r.annotations.description).toBeTruthy();
    }
  });

  it('read only metrics the library or the Redis exporter exposes', () => {
    const known = new Set([...libraryMetrics(), ...EXPORTER_METRICS]);
    expect(libraryMetrics()).toContain('mcp_server_operation_duration_seconds_count');
    for (const r of rules) {
      const used = [...r.expr.matchAll(/\b((?:mcp|redis)_\w+)/g)].map((m) => m[1]);
      expect(used.length).toBeGreaterThan(0);
      for (const metric of used)
        expect({ alert: r.alert, metric, known: known.has(metric) }).toMatchObject({ known: true });
    }
  });

  it('are loaded and scraped for by the compose Prometheus: the replicas and the Redis exporter', () => {
    const config = composeConfig(eachApp()[0][0]);
    const prometheus = config.services.prometheus;
    const file = mountedFile(prometheus, '/etc/prometheus/prometheus.yml')!;
    const scrape = parseYaml(readFileSync(file, 'utf8')) as {
      rule_files: string[];
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    // rule_files are relative to the configuration file: /etc/prometheus/alerts.yml in the container.
    expect(scrape.rule_files).toEqual(['alerts.yml']);
    expect(mountedFile(prometheus, '/etc/prometheus/alerts.yml')).toBe(RULES_FILE);
    const targets = scrape.scrape_configs.flatMap((j) => j.static_configs.flatMap((c) => c.targets));
    expect(targets).toContain('redis-exporter:9121');
    expect(environment(config.services['redis-exporter'].environment).REDIS_ADDR).toBe('redis://redis:6379');
  });

  it('pass promtool: the compose Prometheus configuration and the rules it loads', () => {
    const config = promtool(['check', 'config', resolve(COMPOSE_DIR, 'prometheus.yml')]);
    expect(config.output).toMatch(/SUCCESS: 1 rule files found/);
    expect(config.status).toBe(0);
    expect(promtool(['check', 'rules', RULES_FILE]).status).toBe(0);
  });

  it('fire on made-up series when they should, and not before (promtool test rules)', () => {
    const MiB = 2 ** 20;
    const fired = (name: string, labels: Record<string, string>, vars: Record<string, string>) => ({
      exp_labels: { ...rule(name).labels, ...labels },
      exp_annotations: Object.fromEntries(
        Object.entries(rule(name).annotations).map(([k, v]) => [k, render(v, labels, vars)]),
      ),
    });
    const tests = [
      {
        // 90% of maxmemory for 10 minutes: fires after its 5 minutes; 70% never does.
        input_series: [
          { series: 'redis_memory_used_bytes{instance="full"}', values: `${180 * MiB}x15` },
          { series: 'redis_memory_max_bytes{instance="full"}', values: `${200 * MiB}x15` },
          { series: 'redis_memory_used_bytes{instance="calm"}', values: `${140 * MiB}x15` },
          { series: 'redis_memory_max_bytes{instance="calm"}', values: `${200 * MiB}x15` },
          // No maxmemory: no ratio, no alert.
          { series: 'redis_memory_used_bytes{instance="unbounded"}', values: `${500 * MiB}x15` },
          { series: 'redis_memory_max_bytes{instance="unbounded"}', values: '0x15' },
        ],
        alert_rule_test: [
          { eval_time: '3m', alertname: 'McpRedisMemoryNearLimit', exp_alerts: [] },
          {
            eval_time: '10m',
            alertname: 'McpRedisMemoryNearLimit',
            exp_alerts: [fired('McpRedisMemoryNearLimit', { instance: 'full' }, { value: '90%' })],
          },
        ],
      },
      {
        input_series: [
          { series: 'redis_errors_total{instance="r",err="OOM"}', values: '0 0 0 3 3 3 3' },
          { series: 'redis_errors_total{instance="r",err="WRONGTYPE"}', values: '0 1 2 3 4 5 6' },
          { series: 'redis_up{instance="r"}', values: '1 1 0 0 0 0 0' },
        ],
        alert_rule_test: [
          { eval_time: '2m', alertname: 'McpRedisRefusingWrites', exp_alerts: [] },
          {
            eval_time: '4m',
            alertname: 'McpRedisRefusingWrites',
            exp_alerts: [fired('McpRedisRefusingWrites', { instance: 'r', err: 'OOM' }, {})],
          },
          { eval_time: '2m', alertname: 'McpRedisDown', exp_alerts: [] },
          { eval_time: '4m', alertname: 'McpRedisDown', exp_alerts: [fired('McpRedisDown', { instance: 'r' }, {})] },
        ],
      },
      {
        // Calls refused for an unreachable store on one replica, the other fine; "ok" calls are no alert.
        input_series: [
          {
            series:
              'mcp_server_operation_duration_seconds_count{service="desk",instance="mcp-1",status="upstream_unavailable"}',
            values: '0+2x10',
          },
          {
            series: 'mcp_server_operation_duration_seconds_count{service="desk",instance="mcp-2",status="ok"}',
            values: '0+9x10',
          },
        ],
        alert_rule_test: [
          { eval_time: '1m', alertname: 'McpStoreUnavailable', exp_alerts: [] },
          {
            eval_time: '5m',
            alertname: 'McpStoreUnavailable',
            exp_alerts: [fired('McpStoreUnavailable', { service: 'desk' }, {})],
          },
        ],
      },
    ].map((t) => ({ interval: '1m', ...t }));
    const dir = mkdtempSync(join(tmpdir(), 'promtool-'));
    try {
      const file = join(dir, 'tests.yml');
      writeFileSync(file, JSON.stringify({ rule_files: [RULES_FILE], evaluation_interval: '1m', tests }));
      const run = promtool(['test', 'rules', file]);
      expect(run.output).toMatch(/SUCCESS/);
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the same rules for the Prometheus Operator (deploy/kubernetes/monitoring)', () => {
  const monitoring = checkKustomization('deploy/kubernetes/monitoring');
  const base = checkKustomization('deploy/kubernetes/base').resources;

  it('renders a PrometheusRule with the compose groups and a PodMonitor (kinds of the operator, no built-in schema)', () => {
    expect(monitoring.resources.map((r) => `${r.apiVersion} ${r.kind}`).sort()).toEqual([
      'monitoring.coreos.com/v1 PodMonitor',
      'monitoring.coreos.com/v1 PrometheusRule',
    ]);
    expect(monitoring.errors.every((e) => e.includes('no Kubernetes schema for this kind'))).toBe(true);
    const rule = find<K8sResource & { spec: { groups: unknown } }>(
      monitoring.resources,
      'PrometheusRule',
      'mcp-server',
    );
    expect(rule.spec.groups).toEqual(groups);
  });

  it("scrapes the replicas' management port and the Redis exporter of the base", () => {
    const monitor = find<
      K8sResource & {
        spec: {
          selector: { matchExpressions: { key: string; operator: string; values: string[] }[] };
          podMetricsEndpoints: { port: string; path: string }[];
        };
      }
    >(monitoring.resources, 'PodMonitor', 'mcp-server');
    const [selector] = monitor.spec.selector.matchExpressions;
    const ports = new Set<string>();
    for (const name of ['mcp-server', 'redis']) {
      const pod = podOf(base, 'Deployment', name);
      expect(selector.operator).toBe('In');
      expect(selector.values).toContain(pod.metadata.labels[selector.key]);
      for (const c of pod.spec.containers) for (const p of c.ports ?? []) ports.add(p.name);
    }
    expect(monitor.spec.podMetricsEndpoints.map((e) => e.port).sort()).toEqual(['management', 'metrics']);
    for (const endpoint of monitor.spec.podMetricsEndpoints) expect(ports.has(endpoint.port)).toBe(true);
  });
});

/** promtool from Prometheus (Debian's prometheus package; the test command installs it). */
function promtool(args: string[]): { status: number | null; output: string } {
  const run = spawnSync('promtool', args, { encoding: 'utf8', timeout: 60_000 });
  if (run.error) throw new Error(`promtool could not run (apt-get install -y prometheus): ${run.error.message}`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** An annotation as Prometheus renders it for these rules: `$labels.<name>` and the `$value` given in `vars`. */
function render(template: string, labels: Record<string, string>, vars: Record<string, string>): string {
  return template
    .replace(/\{\{\s*\$labels\.(\w+)\s*\}\}/g, (_, name: string) => labels[name] ?? '')
    .replace(/\{\{\s*\$value[^}]*\}\}/g, () => vars.value);
}
