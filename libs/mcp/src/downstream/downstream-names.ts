import { Injectable, Module } from '@nestjs/common';

/** The downstream names of one app: a name declared twice stops the boot. @internal */
@Injectable()
export class DownstreamNames {
  private readonly names = new Set<string>();

  claim(name: string): void {
    if (this.names.has(name))
      throw new Error(
        `McpDownstreamModule "${name}": declared more than once; give each downstream its own name (see docs/downstream.md)`,
      );
    this.names.add(name);
  }
}

/** Imported by every `McpDownstreamModule.register`: one {@link DownstreamNames} per app. @internal */
@Module({ providers: [DownstreamNames], exports: [DownstreamNames] })
export class DownstreamNamesModule {}

/** The readiness check name of downstream `name`: `downstream_<name>`, lower case, `-` written `_`. @internal */
export const readinessCheckName = (name: string): string => `downstream_${name.toLowerCase().replace(/-/g, '_')}`;
