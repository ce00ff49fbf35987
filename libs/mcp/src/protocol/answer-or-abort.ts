import { McpError } from '../errors/mcp.error';
import { MethodResult } from './handlers/handler-context';

/**
 * The handler's answer, or the abort reason as soon as the call is aborted with a protocol error (the shutdown's
 * `-32006` past the grace period): a handler that ignores its signal cannot keep the caller from its answer.
 * @internal
 */
export function answerOrAbort(work: Promise<MethodResult> | MethodResult, signal: AbortSignal): Promise<MethodResult> {
  if (!(work instanceof Promise)) return Promise.resolve(work);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      if (signal.reason instanceof McpError) reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
