import { Injectable } from '@nestjs/common';
import { TICKET_CATEGORIES, TICKET_PRIORITIES, Ticket, TicketCategory, TicketPriority } from './ticket.model';

/** In-memory tickets, seeded with a deterministic sample. Swap for a real repository in your service. */
@Injectable()
export class TicketsRepository {
  private readonly tickets = new Map<string, Ticket>();
  private readonly byIdempotencyKey = new Map<string, string>();
  private seq = 0;

  constructor() {
    const subjects = [
      'VPN drops every hour',
      'Laptop battery swollen',
      'Cannot log in to payroll',
      'Printer on 3rd floor jams',
      'Invoice shows wrong VAT',
    ];
    for (let i = 0; i < 25; i++) {
      this.insert({
        title: `${subjects[i % subjects.length]} (#${i + 1})`,
        description: 'Reported through the service desk portal.',
        category: TICKET_CATEGORIES[i % TICKET_CATEGORIES.length],
        priority: TICKET_PRIORITIES[i % TICKET_PRIORITIES.length],
        requester: `user${i + 1}@example.com`,
        createdAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
      });
    }
  }

  search(query: string | undefined, status: string | undefined, limit: number): Ticket[] {
    const q = query?.toLowerCase();
    const out: Ticket[] = [];
    for (const t of this.tickets.values()) {
      if (status && t.status !== status) continue;
      if (q && !`${t.title} ${t.description}`.toLowerCase().includes(q)) continue;
      out.push(t);
      if (out.length >= limit) break;
    }
    return out;
  }

  get(id: string): Ticket | undefined {
    return this.tickets.get(id);
  }

  ids(): string[] {
    return [...this.tickets.keys()];
  }

  /** Creates a ticket once per idempotency key; a repeat returns the first ticket. */
  create(
    input: {
      title: string;
      description: string;
      category: TicketCategory;
      priority: TicketPriority;
      requester: string;
    },
    idempotencyKey: string,
  ): { ticket: Ticket; created: boolean } {
    const existing = this.byIdempotencyKey.get(idempotencyKey);
    if (existing) return { ticket: this.tickets.get(existing)!, created: false };
    const ticket = this.insert({ ...input, createdAt: new Date().toISOString() });
    this.byIdempotencyKey.set(idempotencyKey, ticket.id);
    return { ticket, created: true };
  }

  close(id: string, resolution: string): Ticket | undefined {
    const t = this.tickets.get(id);
    if (!t) return undefined;
    t.status = 'closed';
    t.resolution = resolution;
    return t;
  }

  /** Assigns a ticket; assigning it to whom it already has changes nothing. */
  assign(id: string, assignee: string): Ticket | undefined {
    const t = this.tickets.get(id);
    if (t) t.assignee = assignee;
    return t;
  }

  private insert(t: Omit<Ticket, 'id' | 'status'>): Ticket {
    const ticket: Ticket = { id: `HD-${++this.seq}`, status: 'open', ...t };
    this.tickets.set(ticket.id, ticket);
    return ticket;
  }
}
