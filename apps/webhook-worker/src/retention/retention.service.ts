import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@gatehouse/platform';
import { OutboxEventsRepository } from '@gatehouse/webhooks';
import { PollingLoop, PollingService } from '../common/polling-loop';
import { OneTimeTokensRepository, SessionsRepository } from '@gatehouse/identity';

const DAY_MS = 24 * 3600_000;
/** Delivered events and their delivery records are kept this long (docs/webhooks.md). */
export const EVENT_RETENTION_MS = 30 * DAY_MS;
/** Expired or revoked sessions and expired one-time tokens are kept this long (the audit log keeps the history). */
export const EXPIRED_RETENTION_MS = 7 * DAY_MS;
const BATCH = 1000;
const INTERVAL_MS = 3600_000;

/**
 * Housekeeping, hourly, in batches so no statement holds locks for long: delivered outbox events
 * (with their delivery records) after 30 days, expired one-time tokens and expired or revoked
 * sessions (with their refresh chains) after 7 days. Audit events are kept.
 */
@Injectable()
export class RetentionService extends PollingService {
  private readonly logger = new Logger('Retention');
  protected readonly loop = new PollingLoop(
    'retention',
    INTERVAL_MS,
    () => this.purgeOnce(),
    this.logger,
  );

  constructor(
    private readonly outbox: OutboxEventsRepository,
    private readonly sessions: SessionsRepository,
    private readonly tokens: OneTimeTokensRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  /** One batch of each; true while there is more to delete (the loop then runs again at once). */
  async purgeOnce(): Promise<boolean> {
    const now = this.clock.nowMs();
    const events = await this.outbox.purgeDelivered(new Date(now - EVENT_RETENTION_MS), BATCH);
    const sessions = await this.sessions.purge(new Date(now - EXPIRED_RETENTION_MS), BATCH);
    const tokens = await this.tokens.purge(new Date(now - EXPIRED_RETENTION_MS), BATCH);
    return events === BATCH || sessions === BATCH || tokens === BATCH;
  }
}
