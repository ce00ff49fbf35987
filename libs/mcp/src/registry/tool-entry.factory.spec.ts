import { McpToolOptions } from '../decorators/decorator-options.interface';
import { RegistryViolations } from './registry-rules';
import { SchemaCompiler } from './schema-compiler';
import { buildToolEntry } from './tool-entry.factory';

const input = {
  type: 'object',
  properties: { requestId: { type: 'string' }, title: { type: 'string' } },
  required: ['requestId'],
};
const mutation = { risk: 'low' as const, sideEffects: 'Creates an order.', retry: 'safe', approval: 'not required' };

function build(options: Partial<McpToolOptions>) {
  const violations = new RegistryViolations();
  const entry = buildToolEntry(
    { description: 'Creates an order.', input, ...options },
    { className: 'OrdersTools', methodName: 'create' },
    async () => undefined,
    { service: 'svc', defaultTimeoutMs: 30_000, compiler: new SchemaCompiler(), violations },
  );
  let problems = '';
  try {
    violations.throwIfAny();
  } catch (e) {
    problems = (e as Error).message;
  }
  return { entry, problems };
}

describe('a tool entry’s replay key (mutation.idempotency: { key, replay: true })', () => {
  it('is the key argument when replay is true, and nothing otherwise', () => {
    expect(build({ mutation: { ...mutation, idempotency: { key: 'requestId', replay: true } } }).entry?.replayKey).toBe(
      'requestId',
    );
    expect(build({ mutation: { ...mutation, idempotency: { key: 'requestId' } } }).entry?.replayKey).toBeUndefined();
    expect(
      build({
        annotations: { readOnlyHint: true },
        mutation: { ...mutation, idempotency: { key: 'requestId', replay: true } },
      }).entry?.replayKey,
    ).toBeUndefined();
  });

  it('is refused at boot on a task tool (a task keeps its own result)', () => {
    const { entry, problems } = build({
      task: 'optional',
      mutation: { ...mutation, idempotency: { key: 'requestId', replay: true } },
    });
    expect(entry).toBeUndefined();
    expect(problems).toContain('OrdersTools.create: tool "create" runs as a task, so mutation.idempotency.replay');
  });
});
