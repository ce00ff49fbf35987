import { Injectable } from '@nestjs/common';
import { McpApp, McpArgs, McpNotifier, McpScopes, McpTool, ToolExecutionError } from '@app/mcp';
import { TicketsRepository } from './tickets.repository';
import { AssignTicketDto } from './dto/assign-ticket.dto';
import { Ticket, TICKET_PRIORITIES } from './ticket.model';
import { TICKET_SCHEMA, TRIAGE_BOARD_SCHEMA } from './ticket.schemas';
import { NO_SUCH_TICKET } from './tickets.tools';

export const TRIAGE_BOARD_URI = 'ui://helpdesk/triage-board';

const rank = (t: Ticket) => TICKET_PRIORITIES.length - TICKET_PRIORITIES.indexOf(t.priority);

/**
 * The triage board: an MCP Apps view (apps/helpdesk/views/triage-board/, bundled by `npm run build`) that a host
 * renders beside the conversation, the tool that opens it with the open tickets, and the tool the board calls to
 * assign one. Both tools answer with text too, so a client that renders no view loses nothing (docs/apps.md).
 */
@Injectable()
@McpScopes('tickets:read')
export class TriageBoardApp {
  constructor(
    private readonly tickets: TicketsRepository,
    private readonly notifier: McpNotifier,
  ) {}

  @McpApp({
    uri: TRIAGE_BOARD_URI,
    name: 'triage_board',
    title: 'Triage board',
    description: 'The open tickets by priority, with who works on each; assigns a ticket in one click.',
    view: 'triage-board',
    prefersBorder: true,
  })
  board(): void {
    // The document is the built view; reading it still runs the scopes, guards and interceptors of any read.
  }

  @McpTool({
    name: 'show_triage_board',
    title: 'Show triage board',
    description:
      'Lists the open tickets, most urgent first, with who works on each. A client that renders MCP Apps shows them as a board where a ticket can be assigned.',
    output: TRIAGE_BOARD_SCHEMA,
    annotations: { readOnlyHint: true, openWorldHint: false },
    ui: { resourceUri: TRIAGE_BOARD_URI },
  })
  show() {
    const open = this.tickets
      .search(undefined, 'open', Number.MAX_SAFE_INTEGER)
      .sort((a, b) => rank(b) - rank(a) || a.id.localeCompare(b.id, 'en', { numeric: true }));
    const tickets = open.map(({ id, title, status, priority, category, assignee }) => ({
      ...{ id, title, status, priority, category },
      ...(assignee ? { assignee } : {}),
    }));
    const unassigned = tickets.filter((t) => !t.assignee).length;
    const lines = tickets.map((t) => `- ${t.id} [${t.priority}] ${t.title} (${t.assignee ?? 'unassigned'})`);
    const text = `${tickets.length} open tickets, ${unassigned} unassigned:\n${lines.join('\n')}`;
    return { content: [{ type: 'text', text }], structuredContent: { tickets, unassigned } };
  }

  @McpTool({
    name: 'assign_ticket',
    title: 'Assign ticket',
    description:
      'Gives an open ticket to a person or a team. The triage board calls it when a ticket is assigned there.',
    input: AssignTicketDto,
    output: TICKET_SCHEMA,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    mutation: {
      risk: 'low',
      sideEffects: 'Changes who works on the ticket; the previous assignee no longer sees it in their queue.',
      idempotency: { key: 'id' },
      retry: 'safe to retry: assigning a ticket to whom it already has changes nothing.',
      approval: 'not required: assigning again undoes it.',
    },
    ui: { resourceUri: TRIAGE_BOARD_URI },
  })
  @McpScopes('tickets:write')
  assign(@McpArgs() dto: AssignTicketDto) {
    const ticket = this.tickets.get(dto.id);
    if (!ticket) throw new ToolExecutionError(NO_SUCH_TICKET);
    if (ticket.status === 'closed')
      throw new ToolExecutionError(`${ticket.id} is closed; only open tickets are assigned.`);
    const assigned = this.tickets.assign(dto.id, dto.assignee)!;
    this.notifier.resourceUpdated(`helpdesk://tickets/${assigned.id}`);
    return { ...assigned };
  }
}
