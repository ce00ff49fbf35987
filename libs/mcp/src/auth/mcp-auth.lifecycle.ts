import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { MCP_AUTH_CONFIG } from './auth.constants';
import { ResolvedAuthConfig } from './auth-options.interface';

/** Prints a ready-to-use development token at start, and stops the development issuer at shutdown. @internal */
@Injectable()
export class McpAuthLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(MCP_AUTH_CONFIG) private readonly config: ResolvedAuthConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.dev || !this.adapterHost.httpAdapter) return;
    const token = await this.config.dev.mint('*');
    new Logger('McpAuth').log(
      `No issuer configured: using the local development issuer (key in ${this.config.dev.keyFile}); a development token is printed on stderr`,
    );
    // Straight to the terminal, not through the logger: tokens never enter the structured logs.
    process.stderr.write(
      `\nDevelopment token (all scopes, 8 h; mint others with \`npm run token -- --scope "..."\`):\n${token}\n\n`,
    );
  }

  onModuleDestroy(): void {
    this.config.dev?.close();
  }
}
