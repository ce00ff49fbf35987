#!/usr/bin/env node
// Renders kustomizations with kustomize (the `kustomize` devDependency ships its binary) and validates every
// resource against the Kubernetes OpenAPI schemas (`kubernetes-models`, the schemas compiled to validators).
//
//   node scripts/kubernetes-check.mjs [--json] <kustomization folder>...     (npm run k8s:check: every app)
//
// Exit 0 when every folder renders and every resource is valid; 1 otherwise, with each error on its own line.
// --json prints { "<folder>": { "resources": [...], "errors": [...] } } for tests to look at what was rendered.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const KUSTOMIZE = createRequire(import.meta.url).resolve('kustomize/run.js');

/** The base and every app's overlay: what `npm run k8s:check` checks without arguments. */
function defaultFolders() {
  const apps = readdirSync(join(ROOT, 'apps'))
    .map((app) => join('apps', app, 'deploy/kubernetes'))
    .filter((dir) => existsSync(join(ROOT, dir, 'kustomization.yaml')));
  return ['deploy/kubernetes/base', ...apps];
}

function render(folder) {
  const out = execFileSync(process.execPath, [KUSTOMIZE, 'build', folder], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return parseAllDocuments(out).map((doc) => {
    if (doc.errors.length) throw new Error(doc.errors.map((e) => e.message).join('; '));
    return doc.toJS();
  });
}

/** `apps/v1` + `Deployment` -> kubernetes-models/apps/v1, class Deployment (core `v1` has no group). */
async function validate(resource) {
  const { apiVersion, kind } = resource;
  let model;
  try {
    model = (await import(`kubernetes-models/${apiVersion}`))[kind];
  } catch {
    model = undefined;
  }
  if (!model) return [`${apiVersion} ${kind}: no Kubernetes schema for this kind`];
  try {
    new model(resource).validate();
    return [];
  } catch (e) {
    return [e.message];
  }
}

async function check(folder) {
  let resources;
  try {
    resources = render(folder);
  } catch (e) {
    return { resources: [], errors: [`kustomize build ${folder} failed: ${String(e.stderr || e.message).trim()}`] };
  }
  const errors = [];
  for (const resource of resources) {
    const label = `${resource.kind}/${resource.metadata?.name ?? '?'}`;
    for (const message of await validate(resource)) errors.push(`${label}: ${message}`);
  }
  if (!resources.length) errors.push('the kustomization renders no resources');
  return { resources, errors };
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const folders = args.filter((a) => a !== '--json');
const results = {};
for (const folder of folders.length ? folders : defaultFolders()) results[folder] = await check(folder);
if (json) {
  process.stdout.write(JSON.stringify(results));
} else {
  for (const [folder, { resources, errors }] of Object.entries(results)) {
    console.log(`${errors.length ? 'FAIL' : 'ok  '} ${folder}: ${resources.length} resources`);
    for (const error of errors) console.log(`     ${error}`);
  }
}
process.exit(Object.values(results).some((r) => r.errors.length) ? 1 : 0);
