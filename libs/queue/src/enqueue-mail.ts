import { DependencyUnavailableError } from '@gatehouse/platform';
import type { MailQueue } from './message-queues';
import type { MailMessage } from './messages';

/**
 * Enqueues a mail for the worker, giving up after `timeoutMs` (DEPENDENCY_TIMEOUT_MS): the
 * caller's transaction then rolls back and the request is answered 503.
 */
export async function enqueueMail(
  mail: MailQueue,
  message: MailMessage,
  timeoutMs: number,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DependencyUnavailableError('queue')), timeoutMs);
  });
  try {
    await Promise.race([mail.send(message), timeout]);
  } catch (err) {
    throw err instanceof DependencyUnavailableError
      ? err
      : new DependencyUnavailableError('queue', err);
  } finally {
    clearTimeout(timer);
  }
}
