import { Injectable } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { McpReadinessCheck, READINESS_CHECK } from './mcp-readiness-check.decorator';

@McpReadinessCheck('billing_api')
@Injectable()
class BillingCheck {
  isHealthy() {
    return { billing_api: { status: 'up' as const } };
  }
}

describe('@McpReadinessCheck', () => {
  it('makes the provider discoverable under its name', async () => {
    const ref = await Test.createTestingModule({ imports: [DiscoveryModule], providers: [BillingCheck] }).compile();
    const discovery = ref.get(DiscoveryService);
    const [wrapper] = discovery.getProviders({ metadataKey: READINESS_CHECK.KEY });
    expect(wrapper.metatype).toBe(BillingCheck);
    expect(discovery.getMetadataByDecorator(READINESS_CHECK, wrapper)).toBe('billing_api');
  });

  it('refuses names that are not snake_case or belong to the platform', () => {
    expect(() => McpReadinessCheck('Billing API')).toThrow(/must be snake_case/);
    expect(() => McpReadinessCheck('')).toThrow(/must be snake_case/);
    for (const name of ['jwks', 'introspection', 'session_store', 'event_store', 'limit_store', 'shutdown']) {
      expect(() => McpReadinessCheck(name)).toThrow(/is a platform check name/);
    }
  });
});
