// Peer: @rekog/mcp-nest in a Nest 12 app as its README's quick start sets it up: tools on an `@McpController()`
// (Nest microservice message patterns), an `McpStrategy` with the default `StreamableHttpTransport()` (stateless,
// JSON answers, self-mounted on `/mcp` of the Express adapter), `connectMicroservice` + `startAllMicroservices`
// before `listen`.
import 'reflect-metadata';
import { Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { McpController, McpStrategy, StreamableHttpTransport, Tool } from '@rekog/mcp-nest';
import { PEER_TOOLS, fail, ready } from './catalog';

/** One controller class a tool, as a team would write them (a method with `@Tool` each). */
function toolController(tool: (typeof PEER_TOOLS)[number]): Type<unknown> {
  @McpController()
  class ToolController {
    @Tool({
      name: tool.name,
      description: tool.description,
      parameters: tool.input,
      annotations: { title: tool.title, ...tool.annotations },
    })
    call(@Payload() args: Record<string, unknown>) {
      return { content: [{ type: 'text', text: tool.run(args) }] };
    }
  }
  Object.defineProperty(ToolController, 'name', { value: `ToolController_${tool.name}` });
  return ToolController;
}

const mcp = new McpStrategy({
  name: 'bench-peer-mcp-nest',
  version: '1.0.0',
  transports: [new StreamableHttpTransport()],
});

@Module({ controllers: PEER_TOOLS.map(toolController) })
class AppModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule);
  mcp.setHttpAdapter(app.getHttpAdapter());
  app.connectMicroservice({ strategy: mcp });
  await app.startAllMicroservices();
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  ready(address.port, () => app.close());
}

main().catch(fail);
