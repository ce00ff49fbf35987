import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * Kubernetes manifests as the project's checker sees them: `scripts/kubernetes-check.mjs` renders a kustomization
 * with kustomize and validates every resource against the Kubernetes schemas (kubernetes-models).
 */
export const ROOT = resolve(__dirname, '../..');

export interface K8sResource {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

export interface K8sCheck {
  status: number | null;
  resources: K8sResource[];
  errors: string[];
}

/** Renders and validates one kustomization folder (relative to the repository root or absolute). */
export function checkKustomization(folder: string): K8sCheck {
  const run = spawnSync(process.execPath, ['scripts/kubernetes-check.mjs', '--json', folder], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.error) throw run.error;
  const result = (JSON.parse(run.stdout) as Record<string, Omit<K8sCheck, 'status'>>)[folder];
  return { status: run.status, ...result };
}

/** The one resource of a kind and name; throws when it is missing (a clearer failure than undefined). */
export function find<T = K8sResource>(resources: K8sResource[], kind: string, name: string): T {
  const found = resources.find((r) => r.kind === kind && r.metadata.name === name);
  if (!found)
    throw new Error(`no ${kind}/${name} among ${resources.map((r) => `${r.kind}/${r.metadata.name}`).join(', ')}`);
  return found as T;
}
