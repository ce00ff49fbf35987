import { DynamicModule, Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { InjectDownstream } from './inject-downstream.decorator';
import { McpDownstreamClient } from './mcp-downstream.client';
import { McpDownstreamModule } from './mcp-downstream.module';

@Injectable()
class UsesBoth {
  constructor(
    @InjectDownstream('jira') readonly jira: McpDownstreamClient,
    @InjectDownstream('gitlab') readonly gitlab: McpDownstreamClient,
  ) {}
}

const boot = async (imports: DynamicModule[]) => {
  const ref = await Test.createTestingModule({ imports, providers: [UsesBoth] }).compile();
  return { ref, uses: ref.get(UsesBoth) };
};

describe('McpDownstreamModule', () => {
  it('declares several downstreams in one app, each injected by its name (register and registerAsync)', async () => {
    const { ref, uses } = await boot([
      McpDownstreamModule.register({ name: 'jira', baseUrl: 'https://jira.example.com/' }),
      McpDownstreamModule.registerAsync({
        name: 'gitlab',
        useFactory: () => Promise.resolve({ baseUrl: 'https://gitlab.example.com/api/v4/' }),
      }),
    ]);
    expect(uses.jira).toBeInstanceOf(McpDownstreamClient);
    expect([uses.jira.name, uses.gitlab.name, uses.gitlab.breakerState]).toEqual(['jira', 'gitlab', 'closed']);
    await ref.close();
  });

  it('refuses bad options when declared, with the option named', () => {
    expect(() => McpDownstreamModule.register({ name: 'jira', baseUrl: 'http://jira.example.com/' })).toThrow(
      'McpDownstreamModule "jira": baseUrl must use https',
    );
  });

  it('stops the boot for a name declared twice; token credentials are built lazily (no issuer asked at boot)', async () => {
    await expect(
      boot([
        McpDownstreamModule.register({ name: 'jira', baseUrl: 'https://a.example.com/' }),
        McpDownstreamModule.register({ name: 'jira', baseUrl: 'https://b.example.com/' }),
        McpDownstreamModule.register({ name: 'gitlab', baseUrl: 'https://c.example.com/' }),
      ]),
    ).rejects.toThrow('McpDownstreamModule "jira": declared more than once');
    const booted = await boot([
      McpDownstreamModule.register({ name: 'jira', baseUrl: 'https://a.example.com/' }),
      McpDownstreamModule.registerAsync({
        name: 'gitlab',
        useFactory: () => ({
          baseUrl: 'https://c.example.com/',
          credentials: {
            type: 'client_credentials',
            issuer: 'https://issuer.example.com/',
            clientId: 'c',
            clientSecret: 's',
          },
        }),
      }),
    ]);
    expect(booted.uses.gitlab).toBeDefined();
    await booted.ref.close();
  });
});
