import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Job } from 'bullmq';
import { createTransport, type Transporter } from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { openMessage, QUEUES, type MailMessage, type SealedJob } from '@gatehouse/queue';
import { renderMail } from './mail-templates';

/**
 * Sends mail over SMTP (`SMTP_URL`) with nodemailer. A failed send throws so BullMQ retries it
 * with exponential backoff (MESSAGE_JOB_OPTIONS); without `SMTP_URL` the mail is written to the log.
 */
@Processor(QUEUES.mail, { concurrency: 5 })
export class MailProcessor extends WorkerHost implements OnModuleDestroy {
  private readonly logger = new Logger('MailProcessor');
  private readonly transport: Transporter | null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super();
    this.transport = config.mail.smtpUrl ? createTransport(config.mail.smtpUrl, { connectionTimeout: 10_000, socketTimeout: 15_000 }) : null;
  }

  async process(job: Job<SealedJob>): Promise<void> {
    const message = openMessage<MailMessage>(this.config, job.data, 'mail');
    const mail = renderMail(message);
    if (!this.transport) {
      this.logger.log(`mail (no SMTP_URL; logged instead of sent) to=${message.to} subject="${mail.subject}"\n${mail.text}`);
      return;
    }
    await this.transport.sendMail({ from: this.config.mail.from, to: message.to, subject: mail.subject, text: mail.text, html: mail.html });
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
