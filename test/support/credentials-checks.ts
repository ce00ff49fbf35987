import type { LoggerService } from '@nestjs/common';
import { DownstreamCallInfo, DownstreamCredentialsError } from '@app/mcp/downstream';

/** What the credentials under test logged, through {@link logger}. */
export const LOGGED: string[] = [];
export const logger: LoggerService = {
  log: (m: unknown) => void LOGGED.push(String(m)),
  warn: (m: unknown) => void LOGGED.push(String(m)),
  error: (m: unknown) => void LOGGED.push(String(m)),
  debug: (m: unknown) => void LOGGED.push(String(m)),
  verbose: (m: unknown) => void LOGGED.push(String(m)),
};
/** Every token seen in the suite (callers' and issued): none may appear in a log line. */
export const SEEN = new Set<string>();

export const call = (over: Partial<DownstreamCallInfo> = {}, ms = 5000): DownstreamCallInfo => ({
  signal: new AbortController().signal,
  deadline: Date.now() + ms,
  ...over,
});
export const bearer = (headers: Record<string, string>) => {
  const token = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
  if (!token) throw new Error(`no bearer token in ${Object.keys(headers).join(', ')}`);
  SEEN.add(token);
  return token;
};
export const failure = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(e instanceof DownstreamCredentialsError)) throw new Error(`expected a DownstreamCredentialsError, got ${e}`);
  return e;
};
