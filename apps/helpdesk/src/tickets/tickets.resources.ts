import { Injectable } from '@nestjs/common';
import { McpArgs, McpCompletion, McpResource, McpResourceTemplate, ResourceNotFoundError, McpScopes } from '@app/mcp';
import { TicketsRepository } from './tickets.repository';
import { TICKET_CATEGORIES, TICKET_PRIORITIES } from './ticket.model';

/** A fixed resource and a template, with completion for the template's variable. */
@Injectable()
@McpScopes('tickets:read')
export class TicketsResources {
  constructor(private readonly tickets: TicketsRepository) {}

  @McpResource({
    uri: 'helpdesk://catalog/categories',
    name: 'categories',
    title: 'Ticket categories and priorities',
    description: 'The values create_ticket accepts for category and priority.',
    mimeType: 'application/json',
  })
  categories() {
    return JSON.stringify({ categories: TICKET_CATEGORIES, priorities: TICKET_PRIORITIES });
  }

  @McpResourceTemplate({
    uriTemplate: 'helpdesk://tickets/{id}',
    name: 'ticket',
    title: 'One ticket',
    description: 'A ticket as JSON. Subscribe to hear when it changes.',
    mimeType: 'application/json',
  })
  ticket(@McpArgs('id') id: string) {
    const t = this.tickets.get(id);
    if (!t) throw new ResourceNotFoundError();
    return JSON.stringify(t);
  }

  @McpCompletion({ resourceTemplate: 'helpdesk://tickets/{id}', argument: 'id' })
  completeId(value: string) {
    return this.tickets.ids().filter((id) => id.startsWith(value.toUpperCase()));
  }
}
