import { ParamData } from '@nestjs/common';
import { ParamsFactory } from '@nestjs/core';
import { McpParamType } from '../decorators/mcp-params.decorator';

/** Resolves `@McpArgs()` and `@McpCtx()` from the wrapped call's `(args, ctx)`. @internal */
export class McpParamsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, data: ParamData, args: unknown[]): unknown {
    switch (type as McpParamType) {
      case McpParamType.ARGS: {
        const callArgs = args[0] as Record<string, unknown> | undefined;
        return data && callArgs ? callArgs[data as string] : callArgs;
      }
      case McpParamType.CONTEXT:
        return args[1];
      default:
        return undefined;
    }
  }
}
