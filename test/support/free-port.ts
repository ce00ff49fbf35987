import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (for a child server the test starts itself). */
export function freePort(): Promise<number> {
  const probe = createServer();
  return new Promise((ok) =>
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => ok(port));
    }),
  );
}
