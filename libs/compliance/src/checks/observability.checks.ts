import { Check, CheckContext, fail, manual, pass, passInPart } from '../check-context';
import { StandardVersion, Verdict } from '../compliance.types';
import { evidence, redact } from '../http-probe';
import { invalidCall } from './tool-calls.checks';
import { LogFindings, logFindings } from './log-findings';
import { counted } from '../counted';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const NO_LOGS =
  'the log of a server the command did not start cannot be read: run `npm run compliance -- <app>`, or the reviewer reads it';

/** The server's log so far, as the checks judge it; undefined when the command did not start the server. */
const readLogs = (ctx: CheckContext): LogFindings | undefined => (ctx.logs ? logFindings(ctx.logs()) : undefined);

async function structured(ctx: CheckContext, standard: StandardVersion): Promise<Verdict> {
  if (!ctx.logs) return manual(NO_LOGS);
  // A call of this run to look for in the log: the refused call to a read-only tool (nothing changes).
  const call = await invalidCall(ctx, standard);
  await new Promise((ok) => setTimeout(ok, 300)); // the log is written asynchronously
  const logs = readLogs(ctx)!;
  const line = `${logs.json} of ${counted(logs.lines.length, 'log line')} ${logs.json === 1 ? 'is a JSON object' : 'are JSON objects'}`;
  if (logs.lines.length === 0) return fail(line);
  if (logs.plain) return fail(line, `not JSON: ${redact(logs.plain)}`);
  if (!call) return passInPart('that each call is logged (no read-only tool to call safely)', line);
  const logged = logs.lines.some((l) => l.includes(`"${call.tool}"`));
  const seen = `the call to ${call.tool} ${logged ? 'is' : 'is not'} in the log`;
  return logged ? pass(line, seen) : fail(line, seen);
}

const tokenFree = (ctx: CheckContext): Verdict => {
  const logs = readLogs(ctx);
  if (!logs) return manual(NO_LOGS);
  if (logs.leak)
    return fail(
      `a log line holds a token: ${logs.leak.replace(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, 'eyJ…[a JWT]').slice(0, 200)}`,
    );
  return passInPart(
    'that personal data in the logs is masked',
    `none of ${counted(logs.lines.length, 'log line')} holds a JWT or a bearer credential, after the requests of this run so far`,
  );
};

/** Observability, as a client sees it, and the log of a server the command started. */
export const OBSERVABILITY_CHECKS: Record<string, Check> = {
  'obs.request-id': async (ctx, standard) => {
    const id = 'compliance-request-id-1';
    const headers = { 'x-request-id': id };
    const ping =
      standard === '1.2'
        ? await ctx.legacyPost({ id: 'rid', method: 'ping' }, { headers })
        : await ctx.modernPost('server/discover', {}, { headers });
    const echoed = ping.headers.get('x-request-id');
    const line = `X-Request-Id: ${id}; ${evidence(ping, `X-Request-Id: ${echoed ?? '(none)'}`)}`;
    return echoed === id ? pass(line) : fail(line);
  },
  'obs.traceparent': async (ctx, standard) => {
    const headers = { traceparent: TRACEPARENT };
    const sent =
      standard === '1.2'
        ? [await ctx.legacyPost({ id: 'trace', method: 'ping' }, { headers })]
        : [
            await ctx.modernPost('server/discover', {}, { headers }),
            await ctx.modernPost('server/discover', {}, { meta: { traceparent: TRACEPARENT } }),
          ];
    const lines = sent.map((a, i) => `traceparent in the ${i ? '_meta' : 'header'}; ${evidence(a, a.body?.error)}`);
    return sent.every((a) => a.status === 200 && a.body?.result)
      ? passInPart('that the server’s spans join the caller’s trace (seen in the tracing backend)', ...lines)
      : fail(...lines);
  },
  'obs.structured-logs': structured,
  'obs.no-tokens-in-logs': async (ctx) => tokenFree(ctx),
  'obs.logs': async (ctx, standard) => {
    const [a, b] = [await structured(ctx, standard), tokenFree(ctx)];
    if (a.status === 'manual') return a;
    if (a.status === 'fail' || b.status === 'fail') return fail(...a.evidence, ...b.evidence);
    return passInPart(b.reviewer ?? '', ...a.evidence, ...b.evidence);
  },
};
