import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { READINESS_CHECK } from './mcp-readiness-check.decorator';
import { McpReadinessIndicator } from './mcp-readiness-indicator.interface';

/** A discovered team check. @internal */
export interface TeamCheck {
  key: string;
  indicator: McpReadinessIndicator;
}

/**
 * Finds the `@McpReadinessCheck` providers at module init. A request-scoped or transient provider,
 * one without `isHealthy`, or a name used twice stops the boot, naming the class.
 * @internal
 */
@Injectable()
export class ReadinessCheckExplorer implements OnModuleInit {
  private found: TeamCheck[] = [];

  constructor(private readonly discovery: DiscoveryService) {}

  get checks(): readonly TeamCheck[] {
    return this.found;
  }

  onModuleInit(): void {
    const byKey = new Map<string, string>();
    const found: TeamCheck[] = [];
    for (const wrapper of this.discovery.getProviders({ metadataKey: READINESS_CHECK.KEY })) {
      const key = this.discovery.getMetadataByDecorator(READINESS_CHECK, wrapper)!;
      const where = `@McpReadinessCheck('${key}') on ${wrapper.metatype?.name ?? String(wrapper.name)}`;
      if (!wrapper.isDependencyTreeStatic())
        throw new Error(`${where}: readiness checks must be singleton providers (not request-scoped or transient)`);
      const indicator = wrapper.instance as McpReadinessIndicator | undefined;
      if (typeof indicator?.isHealthy !== 'function')
        throw new Error(`${where}: the class must implement McpReadinessIndicator (an isHealthy(key, signal) method)`);
      const other = byKey.get(key);
      if (other !== undefined) throw new Error(`${where}: the name is already used by ${other}`);
      byKey.set(key, wrapper.metatype?.name ?? String(wrapper.name));
      found.push({ key, indicator });
    }
    this.found = found.sort((a, b) => a.key.localeCompare(b.key));
  }
}
