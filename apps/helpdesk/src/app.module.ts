import { Module } from '@nestjs/common';
import { McpModule } from '@app/mcp';
import { TicketsModule } from './tickets/tickets.module';
import { HelpdeskHealthModule } from './health/helpdesk-health.module';

@Module({
  imports: [
    McpModule.forRoot({
      name: 'helpdesk',
      title: 'Helpdesk',
      instructions: 'Helpdesk tickets: search and read them, open new ones, close solved ones. Writes are audited.',
    }),
    TicketsModule,
    HelpdeskHealthModule,
  ],
})
export class AppModule {}
