import { Injectable } from '@nestjs/common';
import { McpArgs, McpCompletion, McpPrompt } from '@app/mcp';
import { RED_PIXEL_PNG } from './media';

const CITIES = ['paris', 'park', 'party', 'prague', 'porto'];

/** The prompts the official conformance suite gets. */
@Injectable()
export class ConformancePrompts {
  @McpPrompt({ name: 'test_simple_prompt', description: 'A simple prompt without arguments.' })
  simple() {
    return 'This is a simple prompt for testing.';
  }

  @McpPrompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments.',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  })
  withArguments(@McpArgs('arg1') arg1: string, @McpArgs('arg2') arg2: string) {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }

  @McpCompletion({ prompt: 'test_prompt_with_arguments', argument: 'arg1' })
  completeArg1(value: string) {
    return CITIES.filter((c) => c.startsWith(value.toLowerCase()));
  }

  @McpPrompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource.',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  })
  withResource(@McpArgs('resourceUri') resourceUri: string) {
    return [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ];
  }

  @McpPrompt({ name: 'test_prompt_with_image', description: 'A prompt with an image.' })
  withImage() {
    return [
      { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ];
  }
}
