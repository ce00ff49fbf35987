import { IsString, Length, Matches } from 'class-validator';
import { McpField } from '@app/mcp';

export class CloseTicketDto {
  @McpField({ description: 'Ticket id, for example HD-7.' })
  @IsString()
  @Matches(/^HD-\d{1,9}$/)
  id!: string;

  @McpField({ description: 'How the problem was solved (3-1000 characters).' })
  @IsString()
  @Length(3, 1000)
  resolution!: string;
}
