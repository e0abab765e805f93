export { MailQueue, MESSAGE_JOB_OPTIONS, openMessage, sealMessage, SmsQueue } from './message-queues';
export type { MailMessage, MailTemplate, SealedJob, SmsMessage } from './messages';
export { QUEUES, type QueueName } from './queue-names';
export { QueueModule } from './queue.module';
