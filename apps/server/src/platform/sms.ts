/**
 * SMS behind a provider interface. The embedded default has no SMS gateway: its stand-in
 * "sends" a code by printing it on the server's console, whatever the log level (`npm start`
 * logs at warn), and keeps the recent ones in an outbox that the loopback-only page
 * `/general/dev/smsOutbox` shows (modules/devtools). A real provider (Aliyun, Tencent Cloud
 * SMS) implements the same one method.
 */
import type { FastifyBaseLogger } from 'fastify';

export interface SmsProvider {
  readonly name: string;
  sendCode(phone: string, code: string): Promise<void>;
}

export interface OutboxEntry {
  phone: string;
  code: string;
  sentAt: Date;
}

/** how many codes the outbox keeps (the newest) */
export const OUTBOX_SIZE = 50;

export class LogSmsProvider implements SmsProvider {
  readonly name = 'log';
  private readonly last = new Map<string, string>();
  private readonly sent: OutboxEntry[] = [];

  /**
   * @param print where the person running the platform reads the codes; the console by
   *   default, since a log level may hide log lines
   */
  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  ) {}

  async sendCode(phone: string, code: string): Promise<void> {
    this.last.set(phone, code);
    this.sent.unshift({ phone, code, sentAt: new Date() });
    this.sent.length = Math.min(this.sent.length, OUTBOX_SIZE);
    // Deliberately shown: this stand-in is the SMS gateway of the embedded default.
    this.print(`  SMS code for ${phone}: ${code}  (短信验证码, valid 5 minutes)`);
    this.log.info({ sms: { phone, code } }, `SMS code for ${phone}: ${code}`);
  }

  /** The codes "sent", newest first. */
  outbox(): readonly OutboxEntry[] {
    return this.sent;
  }

  /** The last code "sent" to a phone; for tests. */
  lastCode(phone: string): string | undefined {
    return this.last.get(phone);
  }
}
