import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { DESCRIPTION_MAX, EVENT_CHOICES, EVENTS_MESSAGE } from './create-webhook.dto';

/** `PATCH /v1/admin/webhooks/{id}`: any subset; `description: null` clears it, the others take no null. */
export class UpdateWebhookDto {
  @ApiPropertyOptional()
  @ValidateIf((o: UpdateWebhookDto) => o.url !== undefined)
  @IsString()
  url?: string;

  @ApiPropertyOptional({ example: ['*'] })
  @ValidateIf((o: UpdateWebhookDto) => o.events !== undefined)
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(100)
  @IsIn(EVENT_CHOICES, { each: true, message: EVENTS_MESSAGE })
  events?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;

  @ApiPropertyOptional({ description: 'true re-enables (clears disabled_reason)' })
  @ValidateIf((o: UpdateWebhookDto) => o.enabled !== undefined)
  @IsBoolean()
  enabled?: boolean;
}
