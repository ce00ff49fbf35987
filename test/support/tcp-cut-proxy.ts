import { createServer, Server, Socket, connect } from 'node:net';
import { AddressInfo } from 'node:net';

/** A TCP proxy a test can cut and restore, to take a dependency (Redis) away from a server under test and back. */
export interface CuttableProxy {
  /** The port clients connect to (stays the same across cut/restore). */
  port: number;
  /** Drops every connection and refuses new ones until {@link restore}. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startCuttableProxy(targetHost: string, targetPort: number): Promise<CuttableProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = (port: number) =>
    new Promise<number>((ok, fail) => {
      server = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => ok((server!.address() as AddressInfo).port));
    });
  const stop = () =>
    new Promise<void>((ok) => {
      for (const s of sockets) s.destroy();
      if (!server) return ok();
      server.close(() => ok());
      server = undefined;
    });
  const port = await listen(0);
  return { port, cut: stop, restore: () => listen(port).then(() => undefined), close: stop };
}
