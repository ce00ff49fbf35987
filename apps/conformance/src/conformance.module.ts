import { Module } from '@nestjs/common';
import { McpModule } from '@app/mcp';
import { ConformanceTools } from './conformance.tools';
import { ConformancePrompts } from './conformance.prompts';
import { ConformanceResources } from './conformance.resources';

/**
 * Fixture for the official MCP conformance suite (`@modelcontextprotocol/conformance`): exactly the
 * tools, prompts and resources its scenarios use, built with the platform's public API only. The
 * service name is `test` because the suite's resource URIs use the `test://` scheme. A test fixture,
 * not a product.
 */
@Module({
  imports: [McpModule.forRoot({ name: 'test', title: 'Conformance fixture', auth: { disabled: true } })],
  providers: [ConformanceTools, ConformancePrompts, ConformanceResources],
})
export class ConformanceModule {}
