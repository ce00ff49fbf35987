import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpArgs, McpCallContext, McpCtx, McpNotifier, McpScopes, McpTool, ToolExecutionError } from '@app/mcp';
import { TicketsRepository } from './tickets.repository';
import { SearchTicketsDto } from './dto/search-tickets.dto';
import { TicketIdDto } from './dto/ticket-id.dto';
import { CreateTicketDto } from './dto/create-ticket.dto';
import { CloseTicketDto } from './dto/close-ticket.dto';
import { Ticket } from './ticket.model';
import { TICKET_LIST_SCHEMA, TICKET_SCHEMA } from './ticket.schemas';

/** Error texts never repeat the caller's input (a model or a UI may render it): they say what to do instead. */
export const NO_SUCH_TICKET = 'No ticket has that id. Use search_tickets to find existing ids.';

const summary = (t: Ticket) => ({
  id: t.id,
  title: t.title,
  status: t.status,
  priority: t.priority,
  category: t.category,
});

/**
 * The helpdesk's tools: two reads, two writes with corporate risk metadata, one long export, one
 * sampling call. Reading needs the `tickets:read` scope; the writes also need `tickets:write`.
 */
@Injectable()
@McpScopes('tickets:read')
export class TicketsTools {
  constructor(
    private readonly tickets: TicketsRepository,
    private readonly notifier: McpNotifier,
  ) {}

  @McpTool({
    name: 'search_tickets',
    title: 'Search tickets',
    description:
      'Finds helpdesk tickets by words in their title or description, optionally by status. Returns at most `limit` tickets (default 10).',
    input: SearchTicketsDto,
    output: TICKET_LIST_SCHEMA,
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  search(@McpArgs() args: SearchTicketsDto) {
    const limit = args.limit ?? 10;
    const found = this.tickets.search(args.query, args.status, limit + 1);
    return {
      tickets: found.slice(0, limit).map(summary),
      count: Math.min(found.length, limit),
      truncated: found.length > limit,
    };
  }

  @McpTool({
    name: 'get_ticket',
    title: 'Get ticket',
    description: 'Returns one ticket with its full description and resolution.',
    input: TicketIdDto,
    output: TICKET_SCHEMA,
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  get(@McpArgs('id') id: string) {
    const ticket = this.tickets.get(id);
    if (!ticket) throw new ToolExecutionError(NO_SUCH_TICKET);
    return { ...ticket };
  }

  @McpTool({
    name: 'create_ticket',
    title: 'Create ticket',
    description: 'Opens a new helpdesk ticket for a requester.',
    input: CreateTicketDto,
    output: TICKET_SCHEMA,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    mutation: {
      risk: 'medium',
      sideEffects: 'Creates a ticket that the support team sees and the requester is notified about.',
      idempotency: { key: 'idempotencyKey' },
      retry: 'safe to retry with the same idempotencyKey; a repeat returns the ticket created first.',
      approval: 'not required.',
    },
  })
  @McpScopes('tickets:write')
  create(@McpArgs() dto: CreateTicketDto) {
    const { ticket } = this.tickets.create(
      {
        title: dto.title,
        description: dto.description,
        category: dto.category,
        priority: dto.priority,
        requester: dto.requester,
      },
      dto.idempotencyKey,
    );
    return { ...ticket };
  }

  @McpTool({
    name: 'close_ticket',
    title: 'Close ticket',
    description:
      'Closes an open ticket with a resolution. Asks the user to confirm when the client supports elicitation.',
    input: CloseTicketDto,
    output: TICKET_SCHEMA,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    mutation: {
      risk: 'high',
      sideEffects: 'Closes the ticket and notifies the requester; reopening needs a human agent.',
      idempotency: { key: 'id' },
      retry: 'safe to retry: closing a closed ticket changes nothing and returns it.',
      approval:
        "the user confirms through elicitation when the client supports it; otherwise the calling agent must have the user's consent.",
    },
  })
  @McpScopes('tickets:write')
  async close(@McpArgs() dto: CloseTicketDto, @McpCtx() ctx: McpCallContext) {
    const ticket = this.tickets.get(dto.id);
    if (!ticket) throw new ToolExecutionError(NO_SUCH_TICKET);
    if (ticket.status === 'closed') return { ...ticket };
    if (ctx.clientCapabilities.elicitation) {
      const answer = await ctx.elicit({
        message: `Close ticket ${ticket.id} "${ticket.title}"?`,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', title: 'Close the ticket' } },
          required: ['confirm'],
        },
      });
      if (answer.action !== 'accept' || (answer.content as { confirm?: boolean } | undefined)?.confirm !== true) {
        throw new ToolExecutionError(`The user did not confirm closing ${ticket.id}; it stays open.`);
      }
    }
    const closed = this.tickets.close(dto.id, dto.resolution)!;
    this.notifier.resourceUpdated(`helpdesk://tickets/${closed.id}`);
    return { ...closed };
  }

  @McpTool({
    name: 'export_tickets',
    title: 'Export tickets',
    description: 'Exports every ticket as CSV, in batches, reporting progress. Takes about a second; can be cancelled.',
    annotations: { readOnlyHint: true, openWorldHint: false },
    // Long-running work: a client that handles tasks (2025-11-25 `task`, or the 2026-07-28 tasks extension) gets a
    // task handle at once and polls it; any other client gets the CSV in the call, as before (docs/tasks.md).
    task: 'optional',
  })
  async export(@McpCtx() ctx: McpCallContext) {
    const ids = this.tickets.ids();
    const rows = ['id,status,priority,category,title'];
    const batch = 5;
    for (let i = 0; i < ids.length; i += batch) {
      await sleep(200, undefined, { signal: ctx.signal });
      for (const id of ids.slice(i, i + batch)) {
        const t = this.tickets.get(id)!;
        rows.push([t.id, t.status, t.priority, t.category, JSON.stringify(t.title)].join(','));
      }
      ctx.reportProgress(
        Math.min(i + batch, ids.length),
        ids.length,
        `exported ${Math.min(i + batch, ids.length)} tickets`,
      );
    }
    ctx.log.info({ event: 'export_done', rows: rows.length - 1 });
    return rows.join('\n');
  }

  @McpTool({
    name: 'draft_reply',
    title: 'Draft reply',
    description:
      "Asks the client's model (sampling) to draft a reply to the requester of a ticket. Needs a client with sampling.",
    input: TicketIdDto,
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  async draftReply(@McpArgs('id') id: string, @McpCtx() ctx: McpCallContext) {
    const ticket = this.tickets.get(id);
    if (!ticket) throw new ToolExecutionError(NO_SUCH_TICKET);
    if (!ctx.clientCapabilities.sampling)
      throw new ToolExecutionError('This client does not offer sampling, so no draft can be written.');
    const answer = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: `Draft a short, polite reply to: ${ticket.title}` } }],
      maxTokens: 300,
    });
    const content = answer.content as { type?: string; text?: string } | undefined;
    return content?.type === 'text' && content.text ? content.text : 'The model returned no text.';
  }
}
