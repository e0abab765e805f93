import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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
import { WEBHOOK_ALL_EVENTS, WEBHOOK_EVENT_TYPES } from '@gatehouse/webhooks';
import { stacked } from '../../common/dto-rules';

export const EVENT_CHOICES: readonly string[] = [...WEBHOOK_EVENT_TYPES, WEBHOOK_ALL_EVENTS];
export const EVENTS_MESSAGE = 'must list known event types or "*"';
export const DESCRIPTION_MAX = 500;

/** `events`: a non-empty list of at most 100 known event types or `*`. */
export const IsEventList = (): PropertyDecorator =>
  stacked(
    IsArray(),
    ArrayNotEmpty(),
    ArrayMaxSize(100),
    IsIn(EVENT_CHOICES, { each: true, message: EVENTS_MESSAGE }),
  );

/** `description`: optional text of at most DESCRIPTION_MAX characters (`null` clears it). */
export const IsDescription = (): PropertyDecorator =>
  stacked(IsOptional(), IsString(), MaxLength(DESCRIPTION_MAX));

/** `POST /v1/admin/webhooks` (docs/api-contract.md §10): `{url, events, description?, enabled?}`. */
export class CreateWebhookDto {
  @ApiProperty({
    example: 'https://example.com/webhooks/gatehouse',
    description: 'http(s) URL; private addresses are refused unless allowed',
  })
  @IsString()
  url!: string;

  @ApiProperty({
    example: ['user.created'],
    description: 'Event types to receive, or ["*"] for all',
  })
  @IsEventList()
  events!: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DESCRIPTION_MAX })
  @IsDescription()
  description?: string | null;

  @ApiPropertyOptional({ default: true })
  @ValidateIf((o: CreateWebhookDto) => o.enabled !== undefined)
  @IsBoolean()
  enabled?: boolean;
}
