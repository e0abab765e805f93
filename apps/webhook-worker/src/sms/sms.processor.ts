import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { JobBroker, openMessage, QUEUES, type JobRecord, type SealedJob, type SmsMessage } from '@gatehouse/queue';

/**
 * Sends SMS through the gateway: `POST {"to","body"}` as JSON to `SMS_GATEWAY_URL`. A non-2xx
 * answer or a network error throws, so BullMQ retries; without the URL the SMS is logged.
 */
@Injectable()
export class SmsProcessor implements OnModuleInit {
  private readonly logger = new Logger('SmsProcessor');

  constructor(
    private readonly broker: JobBroker,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.broker.consume<SealedJob>(QUEUES.sms, (job) => this.process(job), { concurrency: 5 });
  }

  async process(job: JobRecord<SealedJob>): Promise<void> {
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
