import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import {
  JobBroker,
  openMessage,
  QUEUES,
  type JobRecord,
  type MailMessage,
  type SealedJob,
} from '@gatehouse/queue';
import { redactMailText } from '../messages/log-redaction';
import { renderMail } from '../messages/mail-templates';

/**
 * Sends mail over SMTP (`SMTP_URL`) with nodemailer. A failed send throws so BullMQ retries it
 * with exponential backoff (MESSAGE_JOB_OPTIONS). With `MAIL_TRANSPORT=log` (the default without
 * `SMTP_URL` outside production) the mail is written to the log instead, its tokens redacted.
 */
@Injectable()
export class MailProcessor implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('MailProcessor');
  private readonly transport: Transporter | null;

  constructor(
    private readonly broker: JobBroker,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.transport =
      config.mail.transport === 'smtp' && config.mail.smtpUrl
        ? createTransport(config.mail.smtpUrl, { connectionTimeout: 10_000, socketTimeout: 15_000 })
        : null;
  }

  onModuleInit(): void {
    this.broker.consume<SealedJob>(QUEUES.mail, (job) => this.process(job), { concurrency: 5 });
  }

  async process(job: JobRecord<SealedJob>): Promise<void> {
    const message = openMessage<MailMessage>(this.config, job.data, 'mail');
    const mail = renderMail(message);
    if (!this.transport) {
      // In development (npm start) the link is logged whole, so it can be followed on this machine;
      // anywhere else a reader of the logs must not be able to act as the recipient.
      const whole = this.config.localDevelopment;
      this.logger.log(
        `mail (MAIL_TRANSPORT=log: not sent, ${whole ? 'development: links whole' : 'tokens redacted'}) to=${message.to} subject="${mail.subject}"\n${whole ? mail.text : redactMailText(mail.text)}`,
      );
      return;
    }
    await this.transport.sendMail({
      from: this.config.mail.from,
      to: message.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
