import { PipeTransform, Type, assignMetadata } from '@nestjs/common';
import { MCP_PARAM_ARGS_METADATA } from '../mcp.constants';

/**
 * @internal Parameter kinds resolved by the MCP params factory. ARGS shares the number of Nest's
 * `RouteParamtypes.BODY`, so pipes (ValidationPipe included) see the arguments as `type: 'body'`.
 */
export enum McpParamType {
  ARGS = 3,
  CONTEXT = 64,
}

function createMcpParamDecorator(type: McpParamType) {
  return (data?: string, ...pipes: (Type<PipeTransform> | PipeTransform)[]): ParameterDecorator =>
    (target, key, index) => {
      if (key === undefined) return;
      const args = Reflect.getMetadata(MCP_PARAM_ARGS_METADATA, target.constructor, key) ?? {};
      Reflect.defineMetadata(
        MCP_PARAM_ARGS_METADATA,
        assignMetadata(args, type, index, data, ...pipes),
        target.constructor,
        key,
      );
    };
}

/**
 * Injects the validated arguments of a tool call (as an instance of the tool's DTO class when it has
 * one), the arguments of a prompt, or the variables of a resource template. With a property name,
 * injects that one value. Pipes may follow.
 *
 * @example search(@McpArgs() args: SearchTicketsDto, @McpArgs('limit') limit: number) {}
 */
export const McpArgs: (property?: string, ...pipes: (Type<PipeTransform> | PipeTransform)[]) => ParameterDecorator =
  createMcpParamDecorator(McpParamType.ARGS);

/**
 * Injects the {@link McpCallContext} of the current call: ids, session, progress, logging,
 * cancellation and the sampling / elicitation / roots helpers.
 *
 * @example create(@McpArgs() dto: CreateTicketDto, @McpCtx() ctx: McpCallContext) {}
 */
export const McpCtx: () => ParameterDecorator = () => createMcpParamDecorator(McpParamType.CONTEXT)();
