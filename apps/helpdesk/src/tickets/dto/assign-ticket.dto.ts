import { IsString, Matches } from 'class-validator';
import { McpField } from '@app/mcp';

export class AssignTicketDto {
  @McpField({ description: 'Ticket id, for example HD-7.', examples: ['HD-7'] })
  @IsString()
  @Matches(/^HD-\d{1,9}$/)
  id!: string;

  @McpField({
    description: "The handle of the person or team who takes the ticket (2-40 characters: a-z, 0-9, '.', '-').",
    examples: ['network-team', 'j.doe'],
  })
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9.-]{1,39}$/)
  assignee!: string;
}
