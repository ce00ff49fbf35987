import { DynamicModule, Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DiscoveryModule } from '@nestjs/core';
import { ReadinessCheckExplorer } from '../health/readiness-check.explorer';
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

  it('adds the readiness check downstream_<name> only to a downstream that asks for it (register and registerAsync)', async () => {
    const ref = await Test.createTestingModule({
      imports: [
        DiscoveryModule,
        McpDownstreamModule.register({ name: 'jira', baseUrl: 'https://a.example.com/', readiness: true }),
        McpDownstreamModule.registerAsync({
          name: 'gitlab',
          readiness: { path: '/health' },
          useFactory: () => ({ baseUrl: 'https://c.example.com/' }),
        }),
        McpDownstreamModule.register({ name: 'wiki', baseUrl: 'https://w.example.com/' }),
      ],
      providers: [ReadinessCheckExplorer],
    }).compile();
    await ref.init();
    expect(ref.get(ReadinessCheckExplorer).checks.map((c) => c.key)).toEqual(['downstream_gitlab', 'downstream_jira']);
    await ref.close();
  });

  it('refuses readiness from a registerAsync factory: the checks are known when modules are declared', async () => {
    await expect(
      boot([
        McpDownstreamModule.register({ name: 'jira', baseUrl: 'https://a.example.com/' }),
        McpDownstreamModule.registerAsync({
          name: 'gitlab',
          useFactory: () => ({ baseUrl: 'https://c.example.com/', readiness: true }) as never,
        }),
      ]),
    ).rejects.toThrow('give readiness beside name in registerAsync');
    expect(() =>
      McpDownstreamModule.registerAsync({
        name: `a${'b'.repeat(29)}`,
        readiness: true,
        useFactory: () => ({}) as never,
      }),
    ).toThrow(/readiness needs a name of at most 29 characters/);
  });
});
