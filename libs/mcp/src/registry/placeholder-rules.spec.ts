import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsString, Matches } from 'class-validator';
import { McpModule } from '../mcp.module';
import { McpTool } from '../decorators/mcp-tool.decorator';
import { McpPrompt } from '../decorators/mcp-prompt.decorator';
import { McpResource } from '../decorators/mcp-resource.decorator';
import { McpApp } from '../decorators/mcp-app.decorator';
import { McpField } from '../decorators/mcp-arg-field.decorator';
import { McpRegistry } from './mcp.registry';

/** What `nest g mcp-tool refund-order --type high` writes, placeholders included. */
class RefundOrderDto {
  @McpField({ description: 'TODO: what this argument is, e.g. "The text to process."' })
  @IsString()
  text!: string;

  @McpField({ description: 'A key the caller chooses per intended change.' })
  @Matches(/^[A-Za-z0-9_-]{8,64}$/)
  requestId!: string;
}

@Injectable()
class RefundOrderTools {
  @McpTool({
    name: 'refund_order',
    description: 'TODO: say what refund_order does, when to use it and what it returns.',
    input: RefundOrderDto,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    mutation: {
      risk: 'high',
      sideEffects: 'TODO: what a call changes, e.g. "Creates an order in the shop database."',
      idempotency: { key: 'requestId' },
      retry: 'TODO: when a retry is safe, e.g. "safe: a repeated requestId changes nothing."',
      approval: 'TODO: who approves, e.g. "the user confirms in the client", or "not required".',
    },
  })
  refundOrder() {
    return 'ok';
  }
}

/** A tool whose author replaced every placeholder but one risk sentence. */
@Injectable()
class CloseTicketTools {
  @McpTool({
    name: 'close_ticket',
    description: 'Closes a ticket.',
    annotations: { readOnlyHint: false },
    mutation: {
      risk: 'low',
      sideEffects: 'Closes the ticket.',
      idempotency: { none: 'closing twice is harmless' },
      retry: 'safe.',
      approval: 'TODO: who approves.',
    },
  })
  closeTicket() {
    return 'ok';
  }
}

@Injectable()
class GeneratedPromptAndResource {
  @McpPrompt({
    name: 'daily_summary',
    title: 'Daily summary',
    description: 'TODO: say what this prompt asks the model to do.',
    arguments: [{ name: 'topic', description: 'TODO: what the topic is.' }],
  })
  dailySummary() {
    return 'hi';
  }
  @McpResource({ uri: 'svc://price-list', name: 'price_list', mimeType: 'application/json', description: 'TODO: x.' })
  priceList() {
    return '{}';
  }
  // What `nest g mcp-app sales-board` writes (there a built view): an MCP Apps view is checked as a resource.
  @McpApp({ uri: 'ui://svc/sales-board', name: 'sales_board', description: 'TODO: say what the view shows.' })
  salesBoard() {
    return '<!doctype html><p>Board</p>';
  }
}

async function boot(nodeEnv: string | undefined, ...providers: (new (...a: never[]) => unknown)[]) {
  return bootWith({}, nodeEnv, ...providers);
}

async function bootWith(
  server: { description?: string; instructions?: string },
  nodeEnv: string | undefined,
  ...providers: (new (...a: never[]) => unknown)[]
) {
  const previous = process.env.NODE_ENV;
  setNodeEnv(nodeEnv);
  try {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'svc', version: '1.0.0', http: false, ...server })],
      providers,
    }).compile();
    await moduleRef.init();
    return moduleRef;
  } finally {
    setNodeEnv(previous);
  }
}

function setNodeEnv(value: string | undefined): void {
  if (value === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = value;
}

describe('generator placeholders at boot', () => {
  afterEach(() => jest.restoreAllMocks());

  it('NODE_ENV=production: refused among the registry problems, each entry naming its fields and the fix', async () => {
    const refused = boot('production', RefundOrderTools, CloseTicketTools, GeneratedPromptAndResource);
    await expect(refused).rejects.toThrow('Invalid MCP registry (5 problems)');
    const message = await refused.catch((e: Error) => e.message);
    const fix = 'replace each with the real sentence (the generator left them for you to write)';
    expect(message).toContain(
      'RefundOrderTools.refundOrder: tool "refund_order" publishes "TODO:" placeholders in description, ' +
        `mutation.sideEffects, mutation.retry, mutation.approval, input "text": ${fix}`,
    );
    expect(message).toContain(
      `CloseTicketTools.closeTicket: tool "close_ticket" publishes "TODO:" placeholders in mutation.approval: ${fix}`,
    );
    expect(message).toContain(
      'GeneratedPromptAndResource.dailySummary: prompt "daily_summary" publishes "TODO:" placeholders in ' +
        `description, argument "topic": ${fix}`,
    );
    expect(message).toContain(
      `GeneratedPromptAndResource.priceList: resource "svc://price-list" publishes "TODO:" placeholders in description`,
    );
    expect(message).toContain(
      `GeneratedPromptAndResource.salesBoard: resource "ui://svc/sales-board" publishes "TODO:" placeholders in description`,
    );
  });

  it.each([['development'], ['test'], [undefined]])(
    'NODE_ENV=%s: boots and publishes them, with one warning per entry',
    async (nodeEnv) => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const moduleRef = await boot(nodeEnv, RefundOrderTools, CloseTicketTools);
      expect([...moduleRef.get(McpRegistry).tools.keys()]).toEqual(['refund_order', 'close_ticket']);
      const warnings = warn.mock.calls.map(([m]) => String(m)).filter((m) => m.includes('TODO:'));
      expect(warnings).toEqual([
        expect.stringMatching(
          /^RefundOrderTools\.refundOrder: tool "refund_order" publishes .* \(refused when NODE_ENV=production\)$/,
        ),
        expect.stringMatching(/^CloseTicketTools\.closeTicket: tool "close_ticket" .*mutation\.approval: /),
      ]);
      await moduleRef.close();
    },
  );

  it('a tool whose sentences are all written boots in production without a word', async () => {
    @Injectable()
    class Written {
      @McpTool({ name: 'echo', description: 'Echoes. Not a TODO list.', annotations: { readOnlyHint: true } })
      echo() {
        return 'ok';
      }
    }
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const moduleRef = await boot('production', Written);
    expect(moduleRef.get(McpRegistry).tools.has('echo')).toBe(true);
    expect(warn.mock.calls.filter(([m]) => String(m).includes('TODO:'))).toEqual([]);
    await moduleRef.close();
  });
});

describe("the server's own TODO: description and instructions at boot", () => {
  afterEach(() => jest.restoreAllMocks());
  const todo = (warn: jest.SpyInstance) => warn.mock.calls.map(([m]) => String(m)).filter((m) => m.includes('TODO:'));

  it.each([['development'], ['production']])(
    'NODE_ENV=%s: boots, with one warning naming the options that still say TODO:',
    async (nodeEnv) => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const moduleRef = await bootWith(
        {
          // What `nest g mcp-server` writes in app.module.ts.
          description: 'TODO: one sentence on what the svc server offers.',
          instructions: 'TODO: how an agent should use this server, in one or two sentences.',
        },
        nodeEnv,
      );
      expect(todo(warn)).toEqual([
        'McpModule.forRoot: the server\'s description, instructions still say "TODO:": clients read them in ' +
          'initialize and server/discover; replace each with the real sentence (the generator left them for you to write)',
      ]);
      await moduleRef.close();
    },
  );

  it('names only the option that still says it', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const moduleRef = await bootWith(
      { description: 'Orders and refunds.', instructions: 'Call find_order first. TODO: the refund rules.' },
      'test',
    );
    expect(todo(warn)).toEqual([expect.stringMatching(/^McpModule\.forRoot: the server's instructions still say/)]);
    await moduleRef.close();
  });

  it('written sentences: not a word', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const moduleRef = await bootWith(
      { description: 'Orders and refunds; not a TODO list.', instructions: 'Call find_order first.' },
      'test',
    );
    expect(todo(warn)).toEqual([]);
    await moduleRef.close();
  });
});

describe('a SKILL.md whose frontmatter still says TODO: at boot', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'skills-todo-'));
    // What `npm run g -- mcp-skill refund-order` writes, and a written skill beside it.
    mkdirSync(join(root, 'refund-order'));
    writeFileSync(
      join(root, 'refund-order/SKILL.md'),
      "---\nname: refund-order\ndescription: 'TODO: say what this skill teaches and when to use it.'\n---\n\nTODO: steps.\n",
    );
    mkdirSync(join(root, 'close-ticket'));
    writeFileSync(join(root, 'close-ticket/SKILL.md'), '---\nname: close-ticket\ndescription: Close a ticket.\n---\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  afterEach(() => jest.restoreAllMocks());

  const bootSkills = async (nodeEnv: string | undefined) => {
    const previous = process.env.NODE_ENV;
    setNodeEnv(nodeEnv);
    try {
      const moduleRef = await Test.createTestingModule({
        imports: [McpModule.forRoot({ name: 'svc', version: '1.0.0', http: false, skills: { root } })],
      }).compile();
      await moduleRef.init();
      return moduleRef;
    } finally {
      setNodeEnv(previous);
    }
  };
  const message =
    'McpModule.forRoot({ skills }): skill "skill://refund-order/SKILL.md" publishes "TODO:" placeholders in its ' +
    'SKILL.md frontmatter (description): replace each with the real sentence (the generator left them for you to write)';

  it('NODE_ENV=production: refused, naming the skill and the field (the body is not checked)', async () => {
    const refused = bootSkills('production');
    await expect(refused).rejects.toThrow('Invalid MCP registry (1 problem');
    expect(await refused.catch((e: Error) => e.message)).toContain(
      message.replace('McpModule.forRoot({ skills }): ', ''),
    );
  });

  it('NODE_ENV=development: boots and serves it, with one warning', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const moduleRef = await bootSkills('development');
    expect(moduleRef.get(McpRegistry).skills.skills.map((s) => s.uri)).toEqual([
      'skill://close-ticket/SKILL.md',
      'skill://refund-order/SKILL.md',
    ]);
    const warnings = warn.mock.calls.map(([m]) => String(m)).filter((m) => m.includes('TODO:'));
    expect(warnings).toEqual([`${message} (refused when NODE_ENV=production)`]);
    await moduleRef.close();
  });
});
