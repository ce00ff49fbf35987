import { Injectable } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { McpModule } from '../mcp.module';
import { McpPrompt } from '../decorators/mcp-prompt.decorator';
import { McpRegistry } from '../registry/mcp.registry';
import { McpCallContext } from '../context/call-context.interface';
import { McpModuleOptions } from '../mcp-module-options.interface';
import { McpCorporateOptions } from './corporate-options.interface';

/** What the corporate built-ins' specs share: their texts and a module booted with them. @internal */
export const ctx = {} as McpCallContext;
export const BRIEF = '# Svc\nRoutes billing questions. Not for HR.';
export const PROMPT = '# Using svc\nCall `lookup` first.';
export const README = '# svc\n\nThe public contract.';

/** A team's own provider beside the built-ins. */
@Injectable()
export class Tiny {
  @McpPrompt({ name: 'hello', description: 'Says hello.' })
  hello() {
    return 'hello';
  }
}

export async function boot(
  corporate: McpCorporateOptions | undefined,
  extra: Partial<McpModuleOptions> = {},
  ...providers: (new (...a: never[]) => unknown)[]
) {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'svc', version: '1.2.3', http: false, corporate, ...extra })],
    providers: [Tiny, ...providers],
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

/** What `init()` rejected with, as text. */
export async function bootError(
  corporate: McpCorporateOptions | undefined,
  ...providers: (new (...a: never[]) => unknown)[]
): Promise<string> {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'svc', version: '1.2.3', http: false, corporate })],
    providers: [Tiny, ...providers],
  }).compile();
  const error = await moduleRef.init().then(
    () => undefined,
    (e: Error) => e,
  );
  await moduleRef.close();
  if (!error) throw new Error('the boot succeeded');
  return error.message;
}

export const read = async (m: TestingModule, uri: string) => m.get(McpRegistry).resources.get(uri)!.handler({}, ctx);
export const get = async (m: TestingModule, name: string) => m.get(McpRegistry).prompts.get(name)!.handler({}, ctx);
export const ALL = { agentBrief: BRIEF, agentPrompt: PROMPT, readme: README };
