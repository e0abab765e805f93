import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on loopback that keeps what it receives; `failNext` answers 451 to simulate outages. */
export class SmtpSink {
  readonly mails: ParsedMail[] = [];
  private server: SMTPServer | null = null;
  private failures = 0;
  /** Delay before accepting each message (a slow mail server). */
  delayMs = 0;
  port = 0;

  async start(): Promise<number> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (this.failures > 0) {
            this.failures -= 1;
            const err = new Error('try again later') as Error & { responseCode: number };
            err.responseCode = 451;
            callback(err);
            return;
          }
          void simpleParser(Buffer.concat(chunks)).then((mail) =>
            setTimeout(() => {
              this.mails.push(mail);
              callback();
            }, this.delayMs),
          );
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as { port: number }).port;
    return this.port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  failNext(count: number): void {
    this.failures = count;
  }

  clear(): void {
    this.mails.length = 0;
  }

  /** Waits for a mail to `to` (and matching `subject` when given). */
  async waitFor(to: string, timeoutMs = 15_000, subject?: RegExp): Promise<ParsedMail> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const found = this.mails.find(
        (m) =>
          m.to &&
          JSON.stringify(m.to).toLowerCase().includes(to.toLowerCase()) &&
          (!subject || subject.test(m.subject ?? '')),
      );
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no mail to ${to} within ${timeoutMs} ms (got ${this.mails.length})`);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

/** The first link in a mail's text part. */
export function linkIn(mail: ParsedMail): URL {
  const m = /https?:\/\/\S+/.exec(mail.text ?? '');
  if (!m) throw new Error('no link in mail');
  return new URL(m[0]);
}
