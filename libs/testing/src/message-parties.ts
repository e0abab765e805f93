import { spawnApp, type AppProcess } from './app-process';
import { HttpReceiver } from './http-receiver';
import { SmtpSink } from './smtp-sink';

/**
 * The parties mail and SMS reach in a journey: a real SMTP server, a real HTTP SMS gateway, and a
 * webhook-worker process delivering to both (the auth runtime under test only queues them).
 */
export class MessageParties {
  readonly smtp = new SmtpSink();
  readonly gateway = new HttpReceiver();
  private worker: AppProcess | null = null;

  async start(env: Record<string, string> = {}): Promise<void> {
    await this.smtp.start();
    await this.gateway.start();
    this.worker = await spawnApp('webhook-worker', {
      SMTP_URL: this.smtp.url,
      SMS_GATEWAY_URL: `${this.gateway.url}/sms`,
      ...env,
    });
  }

  clear(): void {
    this.smtp.clear();
    this.gateway.clear();
    this.smsRead = 0;
  }

  private smsRead = 0;

  /** The 6-digit code of the next SMS the gateway received (each SMS is read once, in order). */
  async nextSmsCode(): Promise<string> {
    const texts = () => this.gateway.requests.filter((r) => r.path === '/sms');
    const index = this.smsRead;
    await this.gateway.waitFor(() => texts().length > index);
    this.smsRead += 1;
    const body = (JSON.parse(texts()[index].body) as { body: string }).body;
    const code = /\b(\d{6})\b/.exec(body)?.[1];
    if (!code) throw new Error(`no code in the SMS "${body}"`);
    return code;
  }

  async stop(): Promise<void> {
    await this.worker?.stop();
    await this.gateway.stop();
    await this.smtp.stop();
  }
}
