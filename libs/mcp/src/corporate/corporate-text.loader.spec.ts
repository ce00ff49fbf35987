import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Test, TestingModule } from '@nestjs/testing';
import { McpModule } from '../mcp.module';
import { McpRegistry } from '../registry/mcp.registry';
import { McpCallContext } from '../context/call-context.interface';
import { McpCorporateOptions } from '../options/corporate-options.interface';

const ctx = {} as McpCallContext;
const BRIEF = '# Svc\nRoutes billing questions. Not for HR.';
const PROMPT = '# Using svc\nCall `lookup` first.';
const README = '# svc\n\nThe public contract.';
const ALL = { agentBrief: BRIEF, agentPrompt: PROMPT, readme: README };

const moduleWith = (corporate: McpCorporateOptions) =>
  Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'svc', version: '1.2.3', http: false, corporate })],
  }).compile();

async function boot(corporate: McpCorporateOptions): Promise<TestingModule> {
  const moduleRef = await moduleWith(corporate);
  await moduleRef.init();
  return moduleRef;
}

/** What `init()` rejected with, as text. */
async function bootError(corporate: McpCorporateOptions): Promise<string> {
  const moduleRef = await moduleWith(corporate);
  const error = await moduleRef.init().then(
    () => undefined,
    (e: Error) => e,
  );
  await moduleRef.close();
  if (!error) throw new Error('the boot succeeded');
  return error.message;
}

const read = async (m: TestingModule, uri: string) => m.get(McpRegistry).resources.get(uri)!.handler({}, ctx);
const get = async (m: TestingModule, name: string) => m.get(McpRegistry).prompts.get(name)!.handler({}, ctx);

/** Where the built-in texts come from: a string or a file read once at boot, within its size, never empty. */

describe('corporate built-in texts', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'mcp-corporate-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('reads { file } texts at boot, relative paths against the working directory', async () => {
    const brief = file('brief.md', BRIEF);
    const m = await boot({
      agentBrief: { file: brief },
      agentPrompt: { file: relative(process.cwd(), file('prompt.md', PROMPT)) },
      readme: { file: file('README.md', README) },
    });
    expect(await get(m, 'agent_brief')).toBe(BRIEF);
    expect(await get(m, 'agent_prompt')).toBe(PROMPT);
    expect(await read(m, 'doc://readme')).toBe(README);
    // Read once: a later change of the file does not change what is served.
    writeFileSync(brief, 'changed');
    expect(await read(m, 'svc://agent/brief')).toBe(BRIEF);
    await m.close();
  });

  it('stops the boot when a brief is over 2 KB of UTF-8, naming its size and the limit', async () => {
    const ok = await boot({ ...ALL, agentBrief: 'é'.repeat(1024) });
    expect(await get(ok, 'agent_brief')).toHaveLength(1024);
    await ok.close();
    expect(await bootError({ ...ALL, agentBrief: 'é'.repeat(1025) })).toMatch(
      /corporate\.agentBrief is 2050 bytes; .*at most 2048 bytes/,
    );
    const big = file('big.md', 'x'.repeat(3000));
    expect(await bootError({ ...ALL, agentBrief: { file: big } })).toContain(
      `corporate.agentBrief (file "${big}") is 3000 bytes`,
    );
  });

  it('stops the boot when a file is missing or a text is empty, naming the option and the path', async () => {
    const missing = join(dir, 'nope.md');
    const message = await bootError({
      agentBrief: BRIEF,
      agentPrompt: { file: missing },
      readme: { file: join(dir, 'gone.md') },
    });
    expect(message).toContain(`corporate.agentPrompt: cannot read file "${missing}" (ENOENT)`);
    expect(message).toContain(`corporate.readme: cannot read file "${join(dir, 'gone.md')}" (ENOENT)`);
    expect(await bootError({ ...ALL, agentPrompt: '  \n' })).toContain('corporate.agentPrompt is empty');
    expect(await bootError({ ...ALL, agentBrief: { file: 42 } as never })).toContain(
      'corporate.agentBrief must be a string, { file: string } or false',
    );
  });
});
