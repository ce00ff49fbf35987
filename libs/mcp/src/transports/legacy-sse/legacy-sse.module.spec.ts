import { Test } from '@nestjs/testing';
import { McpModule } from '../../mcp.module';
import { MCP_MODULE_OPTIONS } from '../../mcp.constants';
import { ResolvedMcpOptions } from '../../options/mcp-module-options.interface';
import { McpLegacySseController } from './legacy-sse.controller';

describe('legacy HTTP+SSE registration', () => {
  const saved = process.env.MCP_LEGACY_SSE;
  afterEach(() => {
    if (saved === undefined) delete process.env.MCP_LEGACY_SSE;
    else process.env.MCP_LEGACY_SSE = saved;
  });

  const controllersOf = (m: { controllers?: unknown[] }) => m.controllers ?? [];

  it('is off by default', () => {
    delete process.env.MCP_LEGACY_SSE;
    expect(controllersOf(McpModule.forRoot({ name: 'svc' }))).not.toContain(McpLegacySseController);
    expect(controllersOf(McpModule.forRootAsync({ useFactory: () => ({ name: 'svc' }) }))).not.toContain(
      McpLegacySseController,
    );
  });

  it('is on with the option or with MCP_LEGACY_SSE=true, and the option wins', () => {
    delete process.env.MCP_LEGACY_SSE;
    expect(controllersOf(McpModule.forRoot({ name: 'svc', legacySse: true }))).toContain(McpLegacySseController);
    expect(controllersOf(McpModule.forRoot({ name: 'svc', legacySse: true, http: false }))).toEqual([
      McpLegacySseController,
    ]);
    process.env.MCP_LEGACY_SSE = 'true';
    expect(controllersOf(McpModule.forRoot({ name: 'svc' }))).toContain(McpLegacySseController);
    expect(controllersOf(McpModule.forRoot({ name: 'svc', legacySse: false }))).not.toContain(McpLegacySseController);
    process.env.MCP_LEGACY_SSE = 'no';
    expect(controllersOf(McpModule.forRoot({ name: 'svc' }))).not.toContain(McpLegacySseController);
  });

  it('forRootAsync decides at import time and the resolved options say so', async () => {
    delete process.env.MCP_LEGACY_SSE;
    const dynamic = McpModule.forRootAsync({
      useFactory: () => ({ name: 'svc', legacySse: false }),
      legacySse: true,
      http: false,
    });
    expect(controllersOf(dynamic)).toEqual([McpLegacySseController]);
    const moduleRef = await Test.createTestingModule({ imports: [dynamic] }).compile();
    expect(moduleRef.get<ResolvedMcpOptions>(MCP_MODULE_OPTIONS).legacySse).toBe(true);
    await moduleRef.close();
  });
});
