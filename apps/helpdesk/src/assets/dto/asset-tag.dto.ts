import { IsString, Matches } from 'class-validator';
import { McpField } from '@app/mcp';

export class AssetTagDto {
  @McpField({
    description: 'Asset tag printed on the device: two letters, a dash, four digits, for example LT-1001.',
    examples: ['LT-1001'],
  })
  @IsString()
  @Matches(/^[A-Za-z]{2}-\d{4}$/)
  tag!: string;
}
