import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConformanceModule } from './conformance.module';

/** Serves the conformance fixture on HOST:PORT (default 127.0.0.1 and an ephemeral port). */
async function main(): Promise<void> {
  const app = await NestFactory.create(ConformanceModule, { bodyParser: false, logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(Number(process.env.PORT ?? 0), host);
  const { port } = app.getHttpServer().address() as { port: number };
  process.stderr.write(`conformance fixture listening on http://${host}:${port}/mcp\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`conformance fixture failed to start: ${error.message}\n`);
  process.exit(1);
});
