/** Jobs: the JobBroker interface with its BullMQ and in-process implementations, and the mail and SMS queues. */
export { BullMqJobBroker } from './bullmq-job-broker';
export { enqueueMail } from './enqueue-mail';
export {
  backoffDelay,
  JobBroker,
  QueueUnavailableError,
  type ConsumerOptions,
  type JobHandler,
  type JobOptions,
  type JobRecord,
  type QueueCounts,
} from './job-broker';
export { MemoryJobBroker, sharedMemoryJobBroker, type FailedJob } from './memory-job-broker';
export {
  MailQueue,
  MESSAGE_JOB_OPTIONS,
  openMessage,
  sealMessage,
  SmsQueue,
} from './message-queues';
export type { MailMessage, MailTemplate, SealedJob, SmsMessage } from './messages';
export { QUEUES, type QueueName } from './queue-names';
export { QueueModule } from './queue.module';
