import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpModule } from './mcp.module';
import { MCP_MODULE_OPTIONS } from './mcp.constants';
import { McpModuleOptions, McpOptionsFactory, ResolvedMcpOptions } from './options/mcp-module-options.interface';

@Injectable()
class Settings {
  readonly serviceName = 'billing';
}
@Module({ providers: [Settings], exports: [Settings] })
class SettingsModule {}

@Injectable()
class OptionsFactory implements McpOptionsFactory {
  createMcpOptions(): McpModuleOptions {
    return { name: 'crm', version: '3.0.0', pageSize: 5 };
  }
}

describe('McpModule', () => {
  it('forRoot fills defaults and takes the version from package.json', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'orders', http: false })],
    }).compile();
    const options = moduleRef.get<ResolvedMcpOptions>(MCP_MODULE_OPTIONS);
    expect(options).toMatchObject({ name: 'orders', path: '/mcp', pageSize: 100, maxRequestBytes: 1_048_576 });
    expect(options.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('forRootAsync resolves options from an injected provider', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        McpModule.forRootAsync({
          imports: [SettingsModule],
          inject: [Settings],
          useFactory: (s: Settings) => ({ name: s.serviceName, version: '2.1.0' }),
          http: false,
        }),
      ],
    }).compile();
    expect(moduleRef.get<ResolvedMcpOptions>(MCP_MODULE_OPTIONS)).toMatchObject({ name: 'billing', version: '2.1.0' });
  });

  it('forRootAsync accepts an options factory class', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRootAsync({ useClass: OptionsFactory, http: false })],
    }).compile();
    expect(moduleRef.get<ResolvedMcpOptions>(MCP_MODULE_OPTIONS)).toMatchObject({
      name: 'crm',
      version: '3.0.0',
      pageSize: 5,
    });
  });

  it('refuses a name that cannot be a URI scheme and a non-semver version', () => {
    expect(() => McpModule.forRoot({ name: 'Help Desk' })).toThrow(/"name" must be a lower-case service name/);
    expect(() => McpModule.forRoot({ name: 'ok', version: 'latest' })).toThrow(/"version" must be semver/);
  });
});
