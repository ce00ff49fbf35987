import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ToolEntry } from '../registry/registry-entries';
import { describeSchemaErrors } from '../registry/schema-compiler';

/**
 * A tool's arguments checked against its input schema (compiled at boot) and, with a DTO, turned into an instance and
 * validated by class-validator. Violations name fields and constraints, never values. Used where a call starts and
 * again where its task runs (the task keeps the plain arguments).
 * @internal
 */
export async function prepareToolArguments(
  tool: ToolEntry,
  args: Record<string, unknown>,
): Promise<{ value: Record<string, unknown> } | { violations: string[] }> {
  if (!tool.validateInput(args)) return { violations: describeSchemaErrors(tool.validateInput.errors) };
  if (!tool.inputDto) return { value: args };
  const instance = plainToInstance(tool.inputDto, args) as Record<string, unknown>;
  const errors = await validate(instance, { forbidUnknownValues: false });
  if (errors.length) {
    const violations = errors
      .flatMap((e) => Object.keys(e.constraints ?? { invalid: '' }).map((c) => `${e.property}: ${c}`))
      .slice(0, 8);
    return { violations };
  }
  return { value: instance };
}
