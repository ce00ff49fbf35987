import { IsEmail, IsIn, IsString, Length, Matches } from 'class-validator';
import { McpField } from '@app/mcp';
import { TICKET_CATEGORIES, TICKET_PRIORITIES, TicketCategory, TicketPriority } from '../ticket.model';

export class CreateTicketDto {
  @McpField({ description: 'One-line summary of the problem (5-120 characters).' })
  @IsString()
  @Length(5, 120)
  title!: string;

  @McpField({ description: 'What happened, what was expected, and any error text (up to 4000 characters).' })
  @IsString()
  @Length(1, 4000)
  description!: string;

  @McpField({ description: `Category: one of ${TICKET_CATEGORIES.join(', ')}.` })
  @IsIn([...TICKET_CATEGORIES])
  category!: TicketCategory;

  @McpField({ description: `Priority: one of ${TICKET_PRIORITIES.join(', ')}.` })
  @IsIn(TICKET_PRIORITIES)
  priority!: TicketPriority;

  @McpField({ description: 'E-mail of the person the ticket is for.', sensitive: true })
  @IsEmail()
  requester!: string;

  @McpField({
    description:
      'Client-chosen key (8-64 of A-Z a-z 0-9 _ -); repeating a call with the same key returns the first ticket.',
  })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{8,64}$/)
  idempotencyKey!: string;
}
