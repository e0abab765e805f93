import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { openMessage, QUEUES, type SealedJob, type SmsMessage } from '@gatehouse/queue';

/**
 * Sends SMS through the gateway: `POST {"to","body"}` as JSON to `SMS_GATEWAY_URL`. A non-2xx
 * answer or a network error throws, so BullMQ retries; without the URL the SMS is logged.
 */
@Processor(QUEUES.sms, { concurrency: 5 })
export class SmsProcessor extends WorkerHost {
  private readonly logger = new Logger('SmsProcessor');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super();
  }

  async process(job: Job<SealedJob>): Promise<void> {
    const sms = openMessage<SmsMessage>(this.config, job.data, 'sms');
    const url = this.config.sms.gatewayUrl;
    if (!url) {
      this.logger.log(`sms (no SMS_GATEWAY_URL; logged instead of sent) to=${sms.to}: ${sms.body}`);
      return;
    }
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: sms.to, body: sms.body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    });
    if (res.status < 200 || res.status >= 300) throw new Error(`SMS gateway answered ${res.status}`);
  }
}
