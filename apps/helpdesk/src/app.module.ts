import { Module } from '@nestjs/common';
import { McpLoggerModule, McpModule } from '@app/mcp';
import { TicketsModule } from './tickets/tickets.module';
import { HelpdeskHealthModule } from './health/helpdesk-health.module';
import { AssetsModule } from './assets/assets.module';

@Module({
  imports: [
    McpLoggerModule.forRoot(),
    McpModule.forRoot({
      name: 'helpdesk',
      title: 'Helpdesk',
      description:
        'Example MCP server of the template: a small helpdesk whose tickets an agent can search, read, open and close.',
      instructions: 'Helpdesk tickets: search and read them, open new ones, close solved ones. Writes are audited.',
      // Relative to this file, not to the working directory: nest-cli.json copies agent/, skills/ and README.md
      // beside the compiled app, so the same paths hold in src/, in dist/ and in the Docker image.
      skills: { root: `${__dirname}/../skills` },
      // The triage board, bundled by `npm run build` from ../views/triage-board/ into dist beside the app.
      views: { root: `${__dirname}/../views` },
      corporate: {
        agentBrief: { file: `${__dirname}/../agent/brief.md` },
        agentPrompt: { file: `${__dirname}/../agent/prompt.md` },
        readme: { file: `${__dirname}/../README.md` },
      },
    }),
    TicketsModule,
    AssetsModule,
    HelpdeskHealthModule,
  ],
})
export class AppModule {}
