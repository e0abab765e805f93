import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, ValidateIf } from 'class-validator';
import { DESCRIPTION_MAX, IsDescription, IsEventList } from './create-webhook.dto';

/** `PATCH /v1/admin/webhooks/{id}`: any subset; `description: null` clears it, the others take no null. */
export class UpdateWebhookDto {
  @ApiPropertyOptional()
  @ValidateIf((o: UpdateWebhookDto) => o.url !== undefined)
  @IsString()
  url?: string;

  @ApiPropertyOptional({ example: ['*'] })
  @ValidateIf((o: UpdateWebhookDto) => o.events !== undefined)
  @IsEventList()
  events?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX })
  @IsDescription()
  description?: string | null;

  @ApiPropertyOptional({ description: 'true re-enables (clears disabled_reason)' })
  @ValidateIf((o: UpdateWebhookDto) => o.enabled !== undefined)
  @IsBoolean()
  enabled?: boolean;
}
