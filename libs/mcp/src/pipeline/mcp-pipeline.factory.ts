import { Injectable } from '@nestjs/common';
import { ExternalContextCreator } from '@nestjs/core';
import { MCP_CONTEXT_TYPE, MCP_PARAM_ARGS_METADATA } from '../mcp.constants';
import { McpHandler } from '../registry/registry-entries';
import { McpCancelledError } from '../errors/mcp.error';
import { McpParamsFactory } from './mcp-params.factory';

/**
 * Wraps a handler method so that an `AbortError` (from an API given `ctx.signal`) leaves it as a
 * {@link McpCancelledError}: Nest's external exception filter logs every other error as a fault.
 * The method's metadata (guards, interceptors, pipes, filters, custom keys) is copied over, so
 * Nest and `Reflector.get(key, context.getHandler())` see the wrapper exactly as the method.
 * @internal
 */
function cancellationAware(method: (...a: unknown[]) => unknown): (...a: unknown[]) => unknown {
  const asCancelled = (error: unknown): never => {
    throw (error as { name?: string })?.name === 'AbortError' ? new McpCancelledError() : error;
  };
  const wrapper = function (this: unknown, ...args: unknown[]) {
    try {
      const result = method.apply(this, args);
      return result instanceof Promise ? result.catch(asCancelled) : result;
    } catch (error) {
      return asCancelled(error);
    }
  };
  for (const key of Reflect.getMetadataKeys(method))
    Reflect.defineMetadata(key, Reflect.getMetadata(key, method), wrapper);
  Object.defineProperty(wrapper, 'name', { value: method.name });
  return wrapper;
}

/**
 * Wraps each discovered provider method once, at boot, in Nest's own pipeline under context type `mcp` (as
 * `@nestjs/graphql` does for resolvers): guards, interceptors, pipes, filters and param decorators then run on
 * every call the invocation stage makes.
 * @internal
 */
@Injectable()
export class McpPipelineFactory {
  private readonly paramsFactory = new McpParamsFactory();
  private readonly instances = new WeakMap<McpHandler, object>();

  constructor(private readonly contextCreator: ExternalContextCreator) {}

  /** The provider instance a wrapped handler calls. */
  instanceOf(handler: McpHandler): object {
    return this.instances.get(handler)!;
  }

  /** `instance[methodName]` behind Nest's pipeline. */
  wrap(instance: object, methodName: string): McpHandler {
    const callback = cancellationAware((instance as Record<string, (...a: unknown[]) => unknown>)[methodName]);
    const wrapped = this.contextCreator.create(
      instance as never,
      callback,
      methodName,
      MCP_PARAM_ARGS_METADATA,
      this.paramsFactory,
      undefined,
      undefined,
      { guards: true, interceptors: true, filters: true },
      MCP_CONTEXT_TYPE,
    ) as McpHandler;
    this.instances.set(wrapped, instance);
    return wrapped;
  }
}
