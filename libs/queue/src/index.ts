export { QUEUES, type QueueName } from './queue-names';
export { QueueModule } from './queue.module';
