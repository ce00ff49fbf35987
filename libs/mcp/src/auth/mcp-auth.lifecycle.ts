import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { MCP_AUTH_CONFIG } from './auth.constants';
import { ResolvedAuthConfig } from '../options/auth-options.interface';

/**
 * With the development issuer: once the app serves, prints a ready-to-use token and records the app as the one
 * `npm run token` mints for (an app that fails to listen does neither); stops the issuer at shutdown. @internal
 */
@Injectable()
export class McpAuthLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(MCP_AUTH_CONFIG) private readonly config: ResolvedAuthConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const dev = this.config.dev;
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!dev || !server) return;
    // Minted now, shown on 'listening' (synchronously, so before the line that says where the app listens).
    const token = await dev.mint('*');
    if (server.listening) this.served(dev, token);
    else server.once('listening', () => this.served(dev, token));
  }

  private served(dev: NonNullable<ResolvedAuthConfig['dev']>, token: string): void {
    dev.served();
    new Logger('McpAuth').log(
      `No issuer configured: using the local development issuer (key in ${dev.keyFile}); a development token is printed on stderr`,
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
