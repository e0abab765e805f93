import { ApiProperty } from '@nestjs/swagger';

/** A project of the tenant, to label the charts. */
export class StatsProjectResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
}

const SIGN_INS =
  '`session.created` events: sessions started by any way in (password, magic link, passkey, social, an MFA challenge completed), the one a sign-up opens included';
const SIGN_UPS =
  '`user.created` events whose actor is the user (password sign-up, or a first social sign-in that created the account); users the system provisions are not counted';
const FAILED =
  '`user.sign_in_failed` events: attempts refused after a check (wrong password or unknown identifier, disabled account, refused passkey, failed social sign-in, wrong second-factor code)';
const LOCKOUTS =
  "`user.locked` events: a lock starting (an identifier's password lock or a user's second-factor lock)";

/** The sign-in activity of one project on one UTC day. */
export class DailyStatsResponse {
  @ApiProperty({ format: 'date', example: '2026-11-25', description: 'The UTC day' }) date!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: SIGN_INS }) sign_ins!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: SIGN_UPS }) sign_ups!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: FAILED }) failed_sign_ins!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: LOCKOUTS }) lockouts!: number;
}

/** The four counts over the whole window, all projects together (the sums of `daily`). */
export class StatsTotalsResponse {
  @ApiProperty({ type: 'integer', minimum: 0, description: SIGN_INS }) sign_ins!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: SIGN_UPS }) sign_ups!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: FAILED }) failed_sign_ins!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: LOCKOUTS }) lockouts!: number;
}

/** The live sessions of one project. */
export class ProjectSessionCountResponse {
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ type: 'integer', minimum: 1 }) count!: number;
}

/** The delivery records (one per attempt) of the tenant's webhooks created in the window, by status. */
export class WebhookDeliveryStatsResponse {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Attempts the receiver answered with a 2xx',
  })
  succeeded!: number;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Attempts that failed (any other answer or none, a refused address, a webhook disabled meanwhile); a retry, when one follows, is a record of its own',
  })
  failed!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Attempts queued and not yet made' })
  pending!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: 1,
    description: '`succeeded / (succeeded + failed)`; null when no attempt was made',
  })
  success_rate!: number | null;
}

/**
 * `GET /v1/admin/stats`: what the console's Overview charts, for the admin's tenant. Our addition,
 * not in the contract (docs/api-contract.md §16, docs/admin-api.md#stats).
 */
export class StatsResponse {
  @ApiProperty({
    format: 'date',
    example: '2026-10-27',
    description: 'First UTC day of the window',
  })
  from!: string;
  @ApiProperty({
    format: 'date',
    example: '2026-11-25',
    description: 'Last UTC day of the window (today), included',
  })
  to!: string;
  @ApiProperty({
    type: [StatsProjectResponse],
    description: 'Every project of the tenant, the console project included, oldest first',
  })
  projects!: StatsProjectResponse[];
  @ApiProperty({
    type: [DailyStatsResponse],
    description:
      'One row per UTC day and project with at least one non-zero count, by date then project_id',
  })
  daily!: DailyStatsResponse[];
  @ApiProperty({ type: StatsTotalsResponse }) totals!: StatsTotalsResponse;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Sessions of the tenant live now: neither revoked nor expired',
  })
  active_sessions!: number;
  @ApiProperty({
    type: [ProjectSessionCountResponse],
    description: 'Live sessions per project, projects with none left out, by project_id',
  })
  active_sessions_by_project!: ProjectSessionCountResponse[];
  @ApiProperty({ type: WebhookDeliveryStatsResponse })
  webhook_deliveries!: WebhookDeliveryStatsResponse;
}
