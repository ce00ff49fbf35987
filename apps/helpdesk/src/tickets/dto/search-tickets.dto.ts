import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { McpField } from '@app/mcp';

export class SearchTicketsDto {
  @McpField({ description: 'Words to look for in title and description (case-insensitive).' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  query?: string;

  @McpField({ description: 'Only tickets in this status.' })
  @IsOptional()
  @IsIn(['open', 'closed'])
  status?: 'open' | 'closed';

  @McpField({ description: 'Maximum number of tickets to return (1-50, default 10).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;
}
