import { Injectable } from '@nestjs/common';
import { McpArgs, McpCompletion, McpPrompt, ToolExecutionError, McpScopes } from '@app/mcp';
import { TicketsRepository } from './tickets.repository';
import { NO_SUCH_TICKET } from './tickets.tools';

const TONES = ['friendly', 'formal', 'brief'];

/** A parameterised prompt with completion for its arguments. */
@Injectable()
@McpScopes('tickets:read')
export class TicketsPrompts {
  constructor(private readonly tickets: TicketsRepository) {}

  @McpPrompt({
    name: 'triage_ticket',
    title: 'Triage a ticket',
    description: 'Guides the model through triaging one ticket: category, priority, next step.',
    arguments: [
      { name: 'ticketId', description: 'Ticket id, for example HD-7.', required: true },
      { name: 'tone', description: `Tone of the suggested reply: ${TONES.join(', ')}.` },
    ],
  })
  triage(@McpArgs('ticketId') ticketId: string, @McpArgs('tone') tone?: string) {
    const t = this.tickets.get(ticketId);
    if (!t) throw new ToolExecutionError(NO_SUCH_TICKET);
    if (tone !== undefined && !TONES.includes(tone))
      throw new ToolExecutionError(`The tone must be one of ${TONES.join(', ')}.`);
    return {
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Triage helpdesk ticket ${t.id} (${t.status}, ${t.priority}, ${t.category}): "${t.title}".\n${t.description}\nSuggest the right category and priority and the next step; draft the reply in a ${tone ?? 'friendly'} tone.`,
          },
        },
        {
          role: 'user',
          content: {
            type: 'resource_link',
            uri: `helpdesk://tickets/${t.id}`,
            name: t.id,
            mimeType: 'application/json',
          },
        },
      ],
    };
  }

  @McpCompletion({ prompt: 'triage_ticket', argument: 'ticketId' })
  completeTicketId(value: string) {
    return this.tickets.ids().filter((id) => id.startsWith(value.toUpperCase()));
  }

  @McpCompletion({ prompt: 'triage_ticket', argument: 'tone' })
  completeTone(value: string) {
    return TONES.filter((t) => t.startsWith(value.toLowerCase()));
  }
}
