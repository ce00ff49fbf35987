import { IsString, Matches } from 'class-validator';
import { McpField } from '@app/mcp';

export class TicketIdDto {
  @McpField({ description: 'Ticket id, for example HD-7.', examples: ['HD-7'] })
  @IsString()
  @Matches(/^HD-\d{1,9}$/)
  id!: string;
}
