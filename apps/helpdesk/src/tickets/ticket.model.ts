export type TicketStatus = 'open' | 'closed';
export type TicketPriority = 'low' | 'normal' | 'urgent';
export const TICKET_PRIORITIES: TicketPriority[] = ['low', 'normal', 'urgent'];
export const TICKET_CATEGORIES = ['access', 'hardware', 'network', 'software', 'billing'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];

export interface Ticket {
  id: string;
  title: string;
  description: string;
  category: TicketCategory;
  priority: TicketPriority;
  status: TicketStatus;
  requester: string;
  createdAt: string;
  resolution?: string;
  /** Who works on the ticket (a person's or a team's handle); unassigned when absent. */
  assignee?: string;
}
