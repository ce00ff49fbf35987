const summaryProps = {
  id: { type: 'string', description: 'Ticket id.' },
  title: { type: 'string' },
  status: { type: 'string', enum: ['open', 'closed'] },
  priority: { type: 'string', enum: ['low', 'normal', 'urgent'] },
  category: { type: 'string' },
};

/** Output schema of search_tickets. */
export const TICKET_LIST_SCHEMA = {
  type: 'object',
  properties: {
    tickets: {
      type: 'array',
      items: { type: 'object', properties: summaryProps, required: Object.keys(summaryProps) },
    },
    count: { type: 'integer', minimum: 0 },
    truncated: { type: 'boolean', description: 'True when more tickets matched than were returned.' },
  },
  required: ['tickets', 'count', 'truncated'],
};

/** Output schema of get_ticket, create_ticket and close_ticket. */
export const TICKET_SCHEMA = {
  type: 'object',
  properties: {
    ...summaryProps,
    description: { type: 'string' },
    requester: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    resolution: { type: 'string' },
    assignee: { type: 'string', description: 'Who works on the ticket; absent when unassigned.' },
  },
  required: [...Object.keys(summaryProps), 'description', 'requester', 'createdAt'],
};

/** Output schema of show_triage_board: the open tickets, most urgent first. */
export const TRIAGE_BOARD_SCHEMA = {
  type: 'object',
  properties: {
    tickets: {
      type: 'array',
      items: {
        type: 'object',
        properties: { ...summaryProps, assignee: { type: 'string' } },
        required: Object.keys(summaryProps),
      },
    },
    unassigned: { type: 'integer', minimum: 0, description: 'Open tickets nobody works on.' },
  },
  required: ['tickets', 'unassigned'],
};
