/** BullMQ queues (kebab-case). Job data carries ids and non-secret fields only. */
export const QUEUES = {
  mail: 'mail',
  sms: 'sms',
  webhookDeliveries: 'webhook-deliveries',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
