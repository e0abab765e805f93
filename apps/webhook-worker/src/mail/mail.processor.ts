import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { JobBroker, openMessage, QUEUES, type JobRecord, type MailMessage, type SealedJob } from '@gatehouse/queue';
import { renderMail } from './mail-templates';

/**
 * Sends mail over SMTP (`SMTP_URL`) with nodemailer. A failed send throws so BullMQ retries it
 * with exponential backoff (MESSAGE_JOB_OPTIONS); without `SMTP_URL` the mail is written to the log.
 */
@Injectable()
export class MailProcessor implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('MailProcessor');
  private readonly transport: Transporter | null;

  constructor(
    private readonly broker: JobBroker,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.transport = config.mail.smtpUrl ? createTransport(config.mail.smtpUrl, { connectionTimeout: 10_000, socketTimeout: 15_000 }) : null;
  }

  onModuleInit(): void {
    this.broker.consume<SealedJob>(QUEUES.mail, (job) => this.process(job), { concurrency: 5 });
  }

  async process(job: JobRecord<SealedJob>): Promise<void> {
    const message = openMessage<MailMessage>(this.config, job.data, 'mail');
    const mail = renderMail(message);
    if (!this.transport) {
      this.logger.log(`mail (no SMTP_URL; logged instead of sent) to=${message.to} subject="${mail.subject}"\n${mail.text}`);
      return;
    }
    await this.transport.sendMail({ from: this.config.mail.from, to: message.to, subject: mail.subject, text: mail.text, html: mail.html });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
