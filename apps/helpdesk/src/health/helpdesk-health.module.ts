import { Module, Provider } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DIRECTORY_URL, DirectoryHealthIndicator } from './directory-health.indicator';

/**
 * The directory check exists only when `HELPDESK_DIRECTORY_URL` is set: with no upstream configured
 * there is nothing to wait for, and `/ready` simply has no `directory` entry.
 */
export function directoryCheckProviders(env: NodeJS.ProcessEnv): Provider[] {
  const url = env.HELPDESK_DIRECTORY_URL?.trim();
  return url ? [{ provide: DIRECTORY_URL, useValue: url }, DirectoryHealthIndicator] : [];
}

/** The helpdesk's own readiness checks (an upstream API), added the Terminus way. */
@Module({
  imports: [TerminusModule],
  providers: directoryCheckProviders(process.env),
})
export class HelpdeskHealthModule {}
