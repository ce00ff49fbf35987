/**
 * The JSON-RPC error behind an official client's rejection. With the default `spec` HTTP status profile (and in
 * 2026-07-28 for 400s) it is a typed protocol error with the code; its message is reduced to the server's. With an
 * HTTP error status (the `corporate` profile, the limits) the SDK clients surface a transport error whose message
 * carries the JSON-RPC body.
 */
export async function rpcError(promise: Promise<unknown>): Promise<{ code: number; message: string; status?: number }> {
  const e = (await promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (err: unknown) => err,
  )) as { code?: number; message?: string };
  if (typeof e.code === 'number' && e.code < 0)
    return { code: e.code, message: String(e.message).replace(/^MCP error -?\d+: /, '') };
  const body = /\{"jsonrpc":"2\.0".*\}/s.exec(String(e.message))?.[0];
  if (!body) throw new Error(`not a JSON-RPC error: ${String(e.message)}`);
  const parsed = JSON.parse(body) as { error: { code: number; message: string } };
  return { ...parsed.error, status: e.code };
}
