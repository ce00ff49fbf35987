import { Injectable, Scope } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsString } from 'class-validator';
import { McpModule } from '../mcp.module';
import { McpTool } from '../decorators/mcp-tool.decorator';
import { McpResource, McpResourceTemplate } from '../decorators/mcp-resource.decorator';
import { McpPrompt } from '../decorators/mcp-prompt.decorator';
import { McpCompletion } from '../decorators/mcp-completion.decorator';
import { McpRegistry } from '../registry/mcp.registry';
import { McpField } from '../decorators/mcp-arg-field.decorator';

const ro = { annotations: { readOnlyHint: true } } as const;

async function boot(...providers: (new (...a: never[]) => unknown)[]) {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'svc', version: '1.2.3', http: false })],
    providers,
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

describe('McpExplorer boot-time validation', () => {
  it('registers valid providers and wraps each method once', async () => {
    class Args {
      @McpField({ description: 'Text' })
      @IsString()
      text!: string;
    }
    @Injectable()
    class Good {
      @McpTool({ description: 'Echo.', input: Args, ...ro })
      echoText() {
        return 'ok';
      }
      @McpPrompt({ description: 'A prompt.', arguments: [{ name: 'topic', required: true }] })
      brief() {
        return 'hi';
      }
      @McpResource({ uri: 'svc://info', name: 'info', mimeType: 'text/plain' })
      info() {
        return 'info';
      }
      @McpResourceTemplate({ uriTemplate: 'svc://items/{id}', name: 'item', mimeType: 'text/plain' })
      item() {
        return 'item';
      }
      @McpCompletion({ prompt: 'brief', argument: 'topic' })
      topics() {
        return ['a'];
      }
    }
    const moduleRef = await boot(Good);
    const registry = moduleRef.get(McpRegistry);
    expect([...registry.tools.keys()]).toEqual(['echo_text']);
    expect(registry.tools.get('echo_text')!.definition.inputSchema).toEqual({
      type: 'object',
      properties: { text: { type: 'string', description: 'Text' } },
      required: ['text'],
      additionalProperties: false,
    });
    expect(registry.prompts.has('brief')).toBe(true);
    expect(registry.resources.has('svc://info')).toBe(true);
    expect(registry.templates.has('svc://items/{id}')).toBe(true);
    await moduleRef.close();
  });

  it('stops the boot naming class and method for every broken rule', async () => {
    @Injectable()
    class Bad {
      @McpTool({ name: 'BadName', description: 'x', ...ro })
      a() {}
      @McpTool({ name: 'empty_desc', description: '  ', ...ro })
      b() {}
      @McpTool({ name: 'mutating', description: 'Writes.' })
      c() {}
      @McpTool({ name: 'external', description: 'Writes.', mutation: { risk: 'low', sideEffects: 'Sends mail.' } })
      d() {}
      @McpTool({
        name: 'bad_schema',
        description: 'x',
        input: { type: 'object', properties: { a: { type: 'nope' } } },
        ...ro,
      })
      e() {}
      @McpResource({ uri: 'other://x', name: 'x', mimeType: 'text/plain' })
      f() {}
      @McpResource({ uri: 'use://invented', name: 'x', mimeType: 'text/plain' })
      g() {}
      @McpCompletion({ prompt: 'missing', argument: 'x' })
      h() {}
    }
    const error = await boot(Bad).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('Bad.a: tool name "BadName" does not match');
    expect(message).toContain('Bad.b: tool "empty_desc" has an empty description');
    expect(message).toContain('Bad.c: tool "mutating" is not readOnlyHint:true, so it needs mutation.risk: ');
    expect(message).toContain('Bad.c: tool "mutating" is not readOnlyHint:true, so it needs mutation.sideEffects: ');
    // Every missing field in one boot, not one restart at a time: idempotency, retry and approval too.
    for (const field of ['idempotency', 'retry', 'approval']) {
      expect(message).toContain(
        `Bad.c: tool "mutating" has external side effects (mutation.external is not false), so it needs mutation.${field}: `,
      );
    }
    expect(message).toContain(
      'Bad.d: tool "external" has external side effects (mutation.external is not false), so it needs mutation.idempotency',
    );
    expect(message).toContain('Bad.e: tool "bad_schema" inputSchema is invalid JSON Schema');
    expect(message).toContain('Bad.f: resource "other://x": scheme must be "svc://"');
    expect(message).toContain('Bad.g: resource "use://invented": the corporate scheme use:// allows only');
    expect(message).toContain('Bad.h: @McpCompletion refers to unknown prompt "missing"');
  });

  it('refuses duplicate tool names and URIs across providers', async () => {
    @Injectable()
    class One {
      @McpTool({ name: 'same', description: 'x', ...ro })
      a() {}
      @McpResource({ uri: 'svc://r', name: 'r', mimeType: 'text/plain' })
      r() {}
    }
    @Injectable()
    class Two {
      @McpTool({ name: 'same', description: 'y', ...ro })
      b() {}
      @McpResource({ uri: 'svc://r', name: 'r', mimeType: 'text/plain' })
      r() {}
    }
    const message = ((await boot(One, Two).catch((e: Error) => e)) as Error).message;
    expect(message).toContain('Two.b: duplicate tool name "same"');
    expect(message).toContain('Two.r: duplicate resource URI "svc://r"');
  });

  it('refuses request-scoped providers with a clear message', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class Scoped {
      @McpTool({ name: 'scoped', description: 'x', ...ro })
      a() {}
    }
    const message = ((await boot(Scoped).catch((e: Error) => e)) as Error).message;
    expect(message).toContain('Scoped.a: MCP handlers must live in singleton providers');
  });
});
