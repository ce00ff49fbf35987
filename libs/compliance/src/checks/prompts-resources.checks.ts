import {
  Check,
  CheckContext,
  fail,
  manual,
  notApplicable,
  pass,
  passInPart,
  passOnNegativeProbe,
} from '../check-context';
import { StandardVersion } from '../compliance.types';
import { evidence } from '../http-probe';
import { Listed, errorCode, listAll, serverInfo } from './catalogue';
import { readDirFile } from './static.checks';
import { counted } from '../counted';

/** The schemes the standard allows besides the service's own name (docs/compliance.md#s11). */
const CORPORATE_SCHEMES = ['use', 'project', 'doc'];
/**
 * The schemes official extensions give their resources, allowed when the server declares the extension: skill files
 * (docs/skills.md) and MCP Apps views (docs/apps.md).
 */
const EXTENSION_SCHEMES: Record<string, string> = {
  'io.modelcontextprotocol/skills': 'skill',
  'io.modelcontextprotocol/ui': 'ui',
};

/** The headers every MCP server may take without listing them: HTTP's, MCP's and the corporate standard's. */
const STANDARD_HEADERS = new Set(['x-request-id', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host']);

/** `X-…` headers a README names that MCP and the standard do not define (`X-Tenant-Id`, say). */
function nonStandardHeaders(readme: string): string[] {
  const names = [...readme.matchAll(/\bX-[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9]\b/g)].map((m) => m[0]);
  return [...new Set(names)].filter((n) => !STANDARD_HEADERS.has(n.toLowerCase()));
}

/** The service's name as the server states it (`serverInfo.name`). */
async function serviceName(ctx: CheckContext, standard: StandardVersion): Promise<string | undefined> {
  const { info } = await serverInfo(ctx, standard);
  return typeof info?.name === 'string' ? info.name : undefined;
}

/** A listed prompt that needs no argument, or the first listed resource: what can be got or read with no risk. */
function readable(kind: 'prompts' | 'resources', items: Listed[]): Listed | undefined {
  if (kind === 'resources') return items.find((r) => typeof r.uri === 'string');
  return items.find(
    (p) =>
      typeof p.name === 'string' &&
      !((p.arguments as { required?: unknown }[] | undefined) ?? []).some((a) => a?.required === true),
  );
}

/**
 * A kind's list and get methods work when its capability is declared: the list answers; a listed prompt that needs no
 * argument (or the first listed resource) is got (or read); and the get of a name that does not exist answers a
 * JSON-RPC error other than "method not found". With nothing to get safely, the pass rests on the refusal alone, and
 * the report says so.
 */
const worksWhenDeclared =
  (kind: 'prompts' | 'resources', get: string, params: Record<string, unknown>, name: string): Check =>
  async (ctx, standard) => {
    const caps = await ctx.capabilities(standard);
    if (!caps[kind]) return notApplicable(`no \`${kind}\` capability declared`);
    const { items, answer } = await listAll(ctx, standard, `${kind}/list`, kind);
    const probe = await ctx.request(standard, get, params, name);
    const code = errorCode(probe);
    const seen = [
      evidence(answer, items ? counted(items.length, kind.slice(0, -1)) : answer.body?.error),
      `one that does not exist; ${evidence(probe, probe.body?.error)}`,
    ];
    if (!items || code === undefined || code === -32601) return fail(...seen);
    const listed = readable(kind, items);
    if (!listed) {
      const what =
        kind === 'prompts'
          ? 'a listed prompt got (every one needs arguments)'
          : 'a listed resource read (none is listed)';
      return passOnNegativeProbe(what, ...seen);
    }
    const key = kind === 'prompts' ? 'name' : 'uri';
    const got = await ctx.request(standard, get, { [key]: listed[key] }, String(listed[key]));
    const shape = kind === 'prompts' ? 'messages' : 'contents';
    const worked = Array.isArray(got.body?.result?.[shape]);
    const line = `${String(listed[key])}; ${evidence(got, worked ? `${shape}[${got.body.result[shape].length}]` : (got.body?.error ?? got.text))}`;
    return worked ? pass(line, ...seen) : fail(line, ...seen);
  };

/** Prompts and resources, as listed and read (nothing but reads). */
export const PROMPTS_RESOURCES_CHECKS: Record<string, Check> = {
  'life.prompts': worksWhenDeclared(
    'prompts',
    'prompts/get',
    { name: 'compliance_no_such_prompt' },
    'compliance_no_such_prompt',
  ),
  'life.resources': worksWhenDeclared(
    'resources',
    'resources/read',
    { uri: 'compliance://no-such-resource' },
    'compliance://no-such-resource',
  ),
  'prompts.capability': async (ctx, standard) => {
    const declared = Boolean((await ctx.capabilities(standard)).prompts);
    const { items, answer } = await listAll(ctx, standard, 'prompts/list', 'prompts');
    const line = evidence(answer, items ? counted(items.length, 'prompt') : answer.body?.error);
    const what = `the \`prompts\` capability is ${declared ? '' : 'not '}declared`;
    // Prompts served without the capability is the defect; declared with none listed is allowed.
    return items?.length && !declared ? fail(what, line) : pass(what, line);
  },
  'prompts.arguments': async (ctx, standard) => {
    const { items } = await listAll(ctx, standard, 'prompts/list', 'prompts');
    if (!items?.length) return notApplicable('no prompts listed');
    const bad = items.flatMap((p) => {
      const name = JSON.stringify(p.name);
      if ('inputSchema' in p) return [`prompt ${name} has an inputSchema`];
      if (p.arguments !== undefined && !Array.isArray(p.arguments)) return [`prompt ${name}: arguments is not a list`];
      const args = (p.arguments as Record<string, unknown>[] | undefined) ?? [];
      return args.some((a) => typeof a?.name !== 'string') ? [`prompt ${name}: an argument without a name`] : [];
    });
    return bad.length
      ? fail(...bad.slice(0, 10))
      : pass(`${counted(items.length, 'prompt')}, arguments as \`arguments[]\``);
  },
  'prompts.agent': async (ctx, standard) => {
    const { items } = await listAll(ctx, standard, 'prompts/list', 'prompts');
    const names = new Set((items ?? []).map((p) => p.name));
    const missing = ['agent_brief', 'agent_prompt'].filter((n) => !names.has(n));
    if (!missing.length) return pass('`agent_brief` and `agent_prompt` are listed');
    const readme = ctx.dir ? readDirFile(ctx.dir, 'README.md') : undefined;
    if (readme && /agent_brief|agent_prompt|agent routing/i.test(readme))
      return passInPart(
        'that the README’s reason is sound',
        `not listed: ${missing.join(', ')}; README.md speaks of it`,
      );
    return fail(
      `not listed: ${missing.join(', ')}, and ${ctx.dir ? 'README.md does not say why' : 'no --dir to read a reason in'}`,
    );
  },
  'resources.http-headers': async (ctx, standard) => {
    const { items } = await listAll(ctx, standard, 'resources/list', 'resources');
    if ((items ?? []).some((r) => r.uri === 'use://http-headers')) return pass('`use://http-headers` is listed');
    // As far as a machine can tell whether the server takes non-standard headers: its README names one.
    const readme = ctx.dir ? readDirFile(ctx.dir, 'README.md') : undefined;
    const named = readme ? nonStandardHeaders(readme) : [];
    if (named.length)
      return fail(`\`use://http-headers\` is not listed, and README.md names ${named.slice(0, 5).join(', ')}`);
    return manual(
      `\`use://http-headers\` is not listed${readme ? ' and README.md names no non-standard header' : ''}: the reviewer judges whether the server reads one`,
    );
  },
  'resources.schemes': async (ctx, standard) => {
    const own = await serviceName(ctx, standard);
    const fixed = (await listAll(ctx, standard, 'resources/list', 'resources')).items ?? [];
    const templates = (await listAll(ctx, standard, 'resources/templates/list', 'resourceTemplates')).items ?? [];
    const uris = [...fixed.map((r) => String(r.uri)), ...templates.map((t) => String(t.uriTemplate))];
    if (!uris.length) return notApplicable('no resources listed');
    const declared = Object.keys((await ctx.capabilities(standard)).extensions ?? {});
    const extensions = declared.filter((e) => e in EXTENSION_SCHEMES).map((e) => EXTENSION_SCHEMES[e]);
    const allowed = [...CORPORATE_SCHEMES, ...(own ? [own] : []), ...extensions];
    const bad = uris.filter((u) => !allowed.includes(/^([a-z][a-z0-9+.-]*):/i.exec(u)?.[1] ?? ''));
    const seen = `${counted(uris.length, 'URI')}; schemes allowed: ${allowed.join(', ')}`;
    return bad.length ? fail(seen, ...bad.slice(0, 10).map((u) => `${u}: another scheme`)) : pass(seen);
  },
  'resources.read-shape': async (ctx, standard) => {
    const fixed = (await listAll(ctx, standard, 'resources/list', 'resources')).items ?? [];
    const first = fixed.find((r) => typeof r.uri === 'string');
    if (!first) return notApplicable('no resources listed');
    const read = await ctx.request(standard, 'resources/read', { uri: first.uri }, String(first.uri));
    const contents = read.body?.result?.contents as Record<string, unknown>[] | undefined;
    const line = evidence(read, contents ? counted(contents.length, 'content item') : read.body?.error);
    if (!Array.isArray(contents) || !contents.length) return fail(`${first.uri}: no contents[]`, line);
    const bad = contents.filter(
      (c) =>
        typeof c.uri !== 'string' ||
        typeof c.mimeType !== 'string' ||
        (typeof c.text !== 'string' && typeof c.blob !== 'string'),
    );
    return bad.length
      ? fail(
          line,
          `${counted(bad.length, 'content item')} ${bad.length === 1 ? 'lacks' : 'lack'} uri, mimeType, or text/blob`,
        )
      : pass(`${first.uri}`, line);
  },
  'resources.capabilities': async (ctx, standard) => {
    const resources = (await ctx.capabilities(standard)).resources;
    const declared = Boolean(resources?.subscribe);
    // A listed resource, when there is one: a refusal then says "no subscriptions", not "no such resource".
    const listed = readable('resources', (await listAll(ctx, standard, 'resources/list', 'resources')).items ?? []);
    const uri = listed ? String(listed.uri) : 'compliance://no-such-resource';
    const sub = await ctx.request(standard, 'resources/subscribe', { uri });
    const line = `\`resources\` capability: ${JSON.stringify(resources ?? null)}; subscribe to ${uri}; ${evidence(sub, sub.body?.error ?? sub.body?.result)}`;
    const subscribed = sub.body?.result !== undefined;
    if (subscribed && listed) await ctx.request(standard, 'resources/unsubscribe', { uri });
    // Subscriptions answered without being declared are the defect; declared ones must work on a listed resource.
    if (!declared) {
      if (subscribed) return fail(line);
      return listed ? pass(line) : passOnNegativeProbe('a refusal of a listed resource (none is listed)', line);
    }
    if (!listed) return passOnNegativeProbe('a subscription to a listed resource (none is listed)', line);
    return subscribed ? pass(line) : fail(line, 'subscriptions are declared, and one to a listed resource was refused');
  },
  'doc.project-version': async (ctx, standard) => {
    const fixed = (await listAll(ctx, standard, 'resources/list', 'resources')).items ?? [];
    if (fixed.some((r) => r.uri === 'project://version')) return pass('`project://version` is listed');
    const readme = ctx.dir ? readDirFile(ctx.dir, 'README.md') : undefined;
    if (readme?.includes('project://version'))
      return passInPart('that the README calls it optional', 'README.md speaks of `project://version`');
    return fail(
      '`project://version` is not listed',
      ctx.dir ? 'README.md does not mention it' : 'no --dir to read the README',
    );
  },
};
