import { placeholderProblems } from './contract-placeholders';
import { McpContract } from './contract.types';

const FIX = 'replace each with the real sentence (the generator left them for you to write)';

/** A contract as `npm run contract` reads it from a server with one generated tool of each kind. */
function contract(patch: Partial<McpContract> = {}): McpContract {
  return {
    server: { name: 'shop', version: '0.1.0' },
    tools: [
      {
        name: 'get_greeting',
        description: 'Returns a greeting. Not a TODO list.\n\nRead-only: no side effects.',
        inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'Who.' } } },
        annotations: { readOnlyHint: true },
      },
    ],
    prompts: [],
    resources: [],
    resourceTemplates: [],
    deprecations: {},
    ...patch,
  };
}

describe('placeholderProblems', () => {
  it('finds nothing in a contract whose sentences are written', () => {
    expect(placeholderProblems(contract())).toEqual([]);
  });

  it('names each field of a generated mutating tool that still says TODO:, the risk lines by their mutation field', () => {
    const refund = {
      name: 'refund_order',
      title: 'Refund order',
      description: [
        'TODO: say what refund_order does, when to use it and what it returns.',
        '',
        'Risk: high.',
        'Side effects: TODO: what a call changes.',
        'Idempotency: repeat calls with the same `requestId` have no further effect.',
        'Retry: TODO: when a retry is safe.',
        'Timeout: the call is aborted after 30 s.',
        'Audit event: shop.tool.refund_order.',
        'Approval: TODO: who approves.',
      ].join('\n'),
      inputSchema: {
        type: 'object',
        properties: {
          text: { type: 'string', description: 'TODO: what this argument is.' },
          lines: { type: 'array', items: { type: 'object', properties: { sku: { description: 'TODO: x' } } } },
        },
      },
      annotations: { readOnlyHint: false, destructiveHint: true },
    };
    expect(placeholderProblems(contract({ tools: [refund] }))).toEqual([
      'tool "refund_order" publishes "TODO:" placeholders in description, mutation.sideEffects, mutation.retry, ' +
        `mutation.approval, input "text", input "lines[].sku": ${FIX}`,
    ]);
  });

  it('covers annotations, prompts with their arguments, resources (MCP Apps views too) and templates', () => {
    const problems = placeholderProblems(
      contract({
        tools: [{ name: 'ping', description: 'Pings.', inputSchema: {}, annotations: { title: 'TODO: a title' } }],
        prompts: [
          { name: 'daily_summary', description: 'TODO: say.', arguments: [{ name: 'topic', description: 'TODO: t' }] },
        ],
        resources: [
          { uri: 'shop://price-list', name: 'price_list', description: 'TODO: what it holds.' },
          // What `npm run g -- mcp-app sales-board` writes: the view is recorded as a resource.
          { uri: 'ui://shop/sales-board', name: 'sales_board', description: 'TODO: say what the view shows.' },
        ],
        resourceTemplates: [{ uriTemplate: 'shop://invoice/{id}', name: 'invoice', title: 'TODO: title' }],
      }),
    );
    expect(problems).toEqual([
      `tool "ping" publishes "TODO:" placeholders in annotations.title: ${FIX}`,
      `prompt "daily_summary" publishes "TODO:" placeholders in description, argument "topic": ${FIX}`,
      `resource "shop://price-list" publishes "TODO:" placeholders in description: ${FIX}`,
      `resource "ui://shop/sales-board" publishes "TODO:" placeholders in description: ${FIX}`,
      `resource template "shop://invoice/{id}" publishes "TODO:" placeholders in title: ${FIX}`,
    ]);
  });

  it('names a skill whose frontmatter still says TODO:', () => {
    const skill = {
      uri: 'skill://refund-order/SKILL.md',
      name: 'refund-order',
      description: 'TODO: say what this skill teaches an agent and when to use it.',
      files: [{ uri: 'skill://refund-order/SKILL.md', digest: 'sha256:aa' }],
    };
    expect(placeholderProblems(contract({ skills: [skill] }))).toEqual([
      `skill "skill://refund-order/SKILL.md" publishes "TODO:" placeholders in description: ${FIX}`,
    ]);
  });
});
