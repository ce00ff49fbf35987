/** Expected JSON-RPC bodies, for `toEqual`. */

export const rpcResult = (id: string | number, result: unknown) => ({ jsonrpc: '2.0', id, result });

export const rpcError = (id: string | number | null, code: number, message: string | RegExp = /./) => ({
  jsonrpc: '2.0',
  id,
  error: expect.objectContaining({
    code,
    message: typeof message === 'string' ? message : expect.stringMatching(message),
  }),
});

/** The exact capabilities the desk declares (it has tools, prompts, resources and completions). */
export const DESK_CAPABILITIES = {
  logging: {},
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
};
