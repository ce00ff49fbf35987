import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  MCP_APP_METADATA,
  MCP_COMPLETION_METADATA,
  MCP_PROMPT_METADATA,
  MCP_RESOURCE_METADATA,
  MCP_RESOURCE_TEMPLATE_METADATA,
  MCP_SKILL_METADATA,
  MCP_TOOL_METADATA,
} from '../mcp.constants';
import {
  McpAppOptions,
  McpCompletionOptions,
  McpPromptOptions,
  McpResourceOptions,
  McpResourceTemplateOptions,
  McpSkillOptions,
  McpToolOptions,
} from '../decorators/decorator-options.interface';

/** A provider method as the reflector sees it. @internal */
export type McpMethod = (...args: never[]) => unknown;

/** Reads the MCP decorators' metadata from a method. @internal */
@Injectable()
export class McpMetadataAccessor {
  constructor(private readonly reflector: Reflector) {}

  tool(target: McpMethod): McpToolOptions | undefined {
    return this.reflector.get(MCP_TOOL_METADATA, target);
  }
  prompt(target: McpMethod): McpPromptOptions | undefined {
    return this.reflector.get(MCP_PROMPT_METADATA, target);
  }
  resource(target: McpMethod): McpResourceOptions | undefined {
    return this.reflector.get(MCP_RESOURCE_METADATA, target);
  }
  resourceTemplate(target: McpMethod): McpResourceTemplateOptions | undefined {
    return this.reflector.get(MCP_RESOURCE_TEMPLATE_METADATA, target);
  }
  completion(target: McpMethod): McpCompletionOptions | undefined {
    return this.reflector.get(MCP_COMPLETION_METADATA, target);
  }
  app(target: McpMethod): McpAppOptions | undefined {
    return this.reflector.get(MCP_APP_METADATA, target);
  }
  skill(target: McpMethod): McpSkillOptions | undefined {
    return this.reflector.get(MCP_SKILL_METADATA, target);
  }
  /** Whether the method has an MCP decorator (a skill's included). */
  hasAny(target: McpMethod): boolean {
    return this.hasHandler(target) || !!this.skill(target);
  }
  /** Whether the method answers clients (a tool, prompt, resource, template, completion or view). */
  hasHandler(target: McpMethod): boolean {
    return !!(
      this.tool(target) ||
      this.prompt(target) ||
      this.resource(target) ||
      this.resourceTemplate(target) ||
      this.completion(target) ||
      this.app(target)
    );
  }
}
