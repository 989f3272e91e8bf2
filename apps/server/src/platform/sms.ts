/**
 * SMS behind a provider interface. The embedded default writes each code to the server log
 * (and keeps the last one per phone in memory for tests) instead of sending a message; a
 * real provider (Aliyun, Tencent Cloud SMS) implements the same one method.
 */
import type { FastifyBaseLogger } from 'fastify';

export interface SmsProvider {
  readonly name: string;
  sendCode(phone: string, code: string): Promise<void>;
}

export class LogSmsProvider implements SmsProvider {
  readonly name = 'log';
  private readonly last = new Map<string, string>();

  constructor(private readonly log: FastifyBaseLogger) {}

  async sendCode(phone: string, code: string): Promise<void> {
    this.last.set(phone, code);
    // Deliberately logged: this stand-in is the SMS gateway of the embedded default.
    this.log.info({ sms: { phone, code } }, `SMS code for ${phone}: ${code}`);
  }

  /** The last code "sent" to a phone; for tests. */
  lastCode(phone: string): string | undefined {
    return this.last.get(phone);
  }
}
