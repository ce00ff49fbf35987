// An in-process OTLP/HTTP receiver for the production scenario: it accepts every export (200, empty body), keeps
// count of the requests and their bytes, and nothing else. A real exporter pointed at it does all its work.
import { createServer } from 'node:http';

export function startOtlpSink() {
  let requests = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (d) => (bytes += d.length));
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        requests: () => requests,
        bytes: () => bytes,
        stop: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}
