/**
 * Pages for the person running the embedded default on their own machine. Today one: the SMS
 * outbox, where the stand-in SMS gateway's codes can be read (they are also printed on the
 * console). A code logs its phone in, so the page answers only when all of these hold, and is
 * "no such interface" otherwise:
 * - the embedded default (no DATABASE_URL) with the stand-in SMS provider;
 * - a request whose TCP peer is this machine (the socket's address, never a forwarded header).
 */
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/context';
import { AppError } from '../../platform/envelope';
import { LogSmsProvider } from '../../platform/sms';
import { SCAN_PAGE_HEADERS } from '../auth/scan-page';
import { outboxPage } from './outbox-page';

export function fromThisMachine(request: FastifyRequest): boolean {
  const address = request.socket.remoteAddress ?? '';
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

export default async function devtoolsRoutes(app: App): Promise<void> {
  app.get(
    '/dev/smsOutbox',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['devtools'],
        summary:
          'Embedded default only, from this machine only: the SMS codes the stand-in gateway "sent" (HTML)',
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      const sms = app.sms;
      if (app.config.databaseUrl || !(sms instanceof LogSmsProvider) || !fromThisMachine(request)) {
        throw new AppError('routeNotFound');
      }
      return reply.code(200).headers(SCAN_PAGE_HEADERS).send(outboxPage(sms.outbox(), new Date()));
    },
  );
}
