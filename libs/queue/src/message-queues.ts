import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { decryptSecretString, encryptSecret } from '@gatehouse/crypto';
import { QUEUES } from './queue-names';
import type { MailMessage, SealedJob, SmsMessage } from './messages';

/** Retries for mail and SMS: 10 attempts with exponential backoff from 5 s (about 85 minutes in all). */
export const MESSAGE_JOB_OPTIONS = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 5000 },
  removeOnComplete: 1000,
  removeOnFail: false,
} as const;

export function sealMessage(config: AppConfig, message: MailMessage | SmsMessage, kind: 'mail' | 'sms'): SealedJob {
  return { sealed: encryptSecret(config.auth.encryptionKey, JSON.stringify(message), kind) };
}

export function openMessage<T extends MailMessage | SmsMessage>(config: AppConfig, job: SealedJob, kind: 'mail' | 'sms'): T {
  return JSON.parse(decryptSecretString(config.auth.encryptionKey, job.sealed, kind)) as T;
}

/** Hands mail to the worker through BullMQ (the `mail` queue). */
@Injectable()
export class MailQueue {
  constructor(
    @InjectQueue(QUEUES.mail) private readonly queue: Queue<SealedJob>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await this.queue.add(message.template, sealMessage(this.config, message, 'mail'), MESSAGE_JOB_OPTIONS);
  }
}

/** Hands SMS to the worker through BullMQ (the `sms` queue). */
@Injectable()
export class SmsQueue {
  constructor(
    @InjectQueue(QUEUES.sms) private readonly queue: Queue<SealedJob>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    await this.queue.add('sms', sealMessage(this.config, message, 'sms'), MESSAGE_JOB_OPTIONS);
  }
}
