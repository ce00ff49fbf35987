import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpArgs, McpCallContext, McpCtx, McpTool, ToolExecutionError } from '@app/mcp';
import { RED_PIXEL_PNG, silentWav } from './media';

const readOnly = { annotations: { readOnlyHint: true } } as const;
const NO_ARGS = { type: 'object', properties: {}, additionalProperties: false };
const oneString = (name: string, description: string) => ({
  type: 'object',
  properties: { [name]: { type: 'string', description } },
  required: [name],
  additionalProperties: false,
});

/** The tools the official conformance suite calls, built with our decorators only. */
@Injectable()
export class ConformanceTools {
  @McpTool({ name: 'test_simple_text', description: 'Returns a simple text.', input: NO_ARGS, ...readOnly })
  simpleText() {
    return 'This is a simple text response for testing.';
  }

  @McpTool({ name: 'test_image_content', description: 'Returns an image.', input: NO_ARGS, ...readOnly })
  image() {
    return { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' };
  }

  @McpTool({ name: 'test_audio_content', description: 'Returns audio.', input: NO_ARGS, ...readOnly })
  audio() {
    return { type: 'audio', data: silentWav(), mimeType: 'audio/wav' };
  }

  @McpTool({
    name: 'test_embedded_resource',
    description: 'Returns an embedded resource.',
    input: NO_ARGS,
    ...readOnly,
  })
  embedded() {
    return {
      type: 'resource',
      resource: {
        uri: 'test://embedded-resource',
        mimeType: 'text/plain',
        text: 'This is an embedded resource content.',
      },
    };
  }

  @McpTool({
    name: 'test_multiple_content_types',
    description: 'Returns text, an image and a resource.',
    input: NO_ARGS,
    ...readOnly,
  })
  mixed() {
    return [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: '{"test":"data","value":123}',
        },
      },
    ];
  }

  @McpTool({
    name: 'test_tool_with_logging',
    description: 'Logs three lines while it runs.',
    input: NO_ARGS,
    ...readOnly,
  })
  async logging(@McpCtx() ctx: McpCallContext) {
    ctx.log.info('Tool execution started');
    await sleep(50);
    ctx.log.info('Tool processing data');
    await sleep(50);
    ctx.log.info('Tool execution completed');
    return 'Tool with logging executed successfully';
  }

  @McpTool({ name: 'test_error_handling', description: 'Always fails as a tool error.', input: NO_ARGS, ...readOnly })
  error(): never {
    throw new ToolExecutionError('This tool intentionally returns an error for testing');
  }

  @McpTool({
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50, 100 of 100.',
    input: NO_ARGS,
    ...readOnly,
  })
  async progress(@McpCtx() ctx: McpCallContext) {
    ctx.reportProgress(0, 100);
    await sleep(60);
    ctx.reportProgress(50, 100);
    await sleep(60);
    ctx.reportProgress(100, 100);
    await sleep(60);
    return 'Tool with progress executed successfully';
  }

  @McpTool({
    name: 'test_sampling',
    description: 'Asks the client model.',
    input: oneString('prompt', 'The prompt to send to the LLM'),
    ...readOnly,
  })
  async sampling(@McpArgs('prompt') prompt: string, @McpCtx() ctx: McpCallContext) {
    const result = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
      maxTokens: 100,
    });
    const content = result.content as { type?: string; text?: string };
    return `LLM response: ${content?.type === 'text' ? content.text : JSON.stringify(content)}`;
  }

  @McpTool({
    name: 'test_elicitation',
    description: 'Asks the user.',
    input: oneString('message', 'The message to show the user'),
    ...readOnly,
  })
  async elicitation(@McpArgs('message') message: string, @McpCtx() ctx: McpCallContext) {
    const result = await ctx.elicit({
      message,
      requestedSchema: {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      },
    });
    return `User response: action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`;
  }

  @McpTool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Elicits with defaults for every primitive type.',
    input: NO_ARGS,
    ...readOnly,
  })
  async elicitationDefaults(@McpCtx() ctx: McpCallContext) {
    const result = await ctx.elicit({
      message: 'Please review and update the form fields with defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: {
            type: 'string',
            description: 'User status',
            enum: ['active', 'inactive', 'pending'],
            default: 'active',
          },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
        required: [],
      },
    });
    return `Elicitation completed: action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`;
  }

  @McpTool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Elicits with the five enum shapes.',
    input: NO_ARGS,
    ...readOnly,
  })
  async elicitationEnums(@McpCtx() ctx: McpCallContext) {
    const result = await ctx.elicit({
      message: 'Please select options from the enum fields',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: {
            type: 'string',
            description: 'Untitled single-select',
            enum: ['option1', 'option2', 'option3'],
          },
          titledSingle: {
            type: 'string',
            description: 'Titled single-select',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            description: 'Legacy titled enum',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            description: 'Untitled multi-select',
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            description: 'Titled multi-select',
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
        required: [],
      },
    });
    return `Elicitation completed: action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`;
  }

  @McpTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    input: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    ...readOnly,
  })
  jsonSchema(@McpArgs() args: Record<string, unknown>) {
    return `Received: ${JSON.stringify(args)}`;
  }

  @McpTool({
    name: 'test_reconnection',
    description: 'Closes its SSE connection mid-call; the result arrives after the client reconnects.',
    input: NO_ARGS,
    ...readOnly,
  })
  async reconnection(@McpCtx() ctx: McpCallContext) {
    ctx.closeSseStream();
    await sleep(100);
    return 'Reconnection test completed successfully';
  }
}
