import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { decryptSecretString, encryptSecret } from '@gatehouse/crypto';
import { JobBroker, type JobOptions } from './job-broker';
import { QUEUES } from './queue-names';
import type { MailMessage, SealedJob, SmsMessage } from './messages';

/** Retries for mail and SMS: 10 attempts with exponential backoff from 5 s (about 85 minutes in all). */
export const MESSAGE_JOB_OPTIONS: JobOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delayMs: 5000 },
};

export function sealMessage(
  config: AppConfig,
  message: MailMessage | SmsMessage,
  kind: 'mail' | 'sms',
): SealedJob {
  return { sealed: encryptSecret(config.auth.encryptionKey, JSON.stringify(message), kind) };
}

export function openMessage<T extends MailMessage | SmsMessage>(
  config: AppConfig,
  job: SealedJob,
  kind: 'mail' | 'sms',
): T {
  return JSON.parse(decryptSecretString(config.auth.encryptionKey, job.sealed, kind)) as T;
}

/** Hands mail to the worker (the `mail` queue). */
@Injectable()
export class MailQueue {
  constructor(
    private readonly broker: JobBroker,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await this.broker.add(
      QUEUES.mail,
      message.template,
      sealMessage(this.config, message, 'mail'),
      MESSAGE_JOB_OPTIONS,
    );
  }
}

/** Hands SMS to the worker (the `sms` queue). */
@Injectable()
export class SmsQueue {
  constructor(
    private readonly broker: JobBroker,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    await this.broker.add(
      QUEUES.sms,
      'sms',
      sealMessage(this.config, message, 'sms'),
      MESSAGE_JOB_OPTIONS,
    );
  }
}
