import { IncomingMessage, Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

/** An OpenTelemetry collector's stand-in: an OTLP/HTTP endpoint on loopback that keeps what it receives. */
export interface OtlpSink {
  url: string;
  /** Bodies POSTed to /v1/traces (OTLP protobuf: resource and span names appear as plain UTF-8 in them). */
  traces: Buffer[];
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  const traces: Buffer[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') traces.push(Buffer.concat(chunks));
      // An empty ExportTraceServiceResponse: full success.
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    traces,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}
