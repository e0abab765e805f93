import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import {
  JobBroker,
  openMessage,
  QUEUES,
  type JobRecord,
  type SealedJob,
  type SmsMessage,
} from '@gatehouse/queue';
import { redactSmsBody } from '../messages/log-redaction';

/**
 * Sends SMS through the gateway: `POST {"to","body"}` as JSON to `SMS_GATEWAY_URL`. A non-2xx
 * answer or a network error throws, so BullMQ retries. With `SMS_TRANSPORT=log` (the default
 * without a URL outside production) the SMS is written to the log instead, its code redacted.
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
    if (this.config.sms.transport === 'log' || !url) {
      const whole = this.config.localDevelopment;
      this.logger.log(
        `sms (SMS_TRANSPORT=log: not sent, ${whole ? 'development: code shown' : 'code redacted'}) to=${sms.to}: ${whole ? sms.body : redactSmsBody(sms.body)}`,
      );
      return;
    }
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: sms.to, body: sms.body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    });
    if (res.status < 200 || res.status >= 300)
      throw new Error(`SMS gateway answered ${res.status}`);
  }
}
