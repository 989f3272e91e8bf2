/**
 * Pages for the person running the embedded default on their own machine:
 * - the SMS outbox, where the stand-in SMS gateway's codes can be read (they are also printed
 *   on the console);
 * - the demo devices, the buttons on the simulated gateways' boxes (bind button, power,
 *   network), so a demo gateway can be bound without hardware.
 * A code logs its phone in and a bind button press confirms a binding, so each page answers
 * only when all of these hold, and is "no such interface" otherwise:
 * - the embedded default (no DATABASE_URL) with the stand-in (SMS provider, demo fleet);
 * - a request whose TCP peer is this machine (the socket's address, never a forwarded header).
 * The demo devices' buttons also carry the page's token: a page of another site open in the
 * same browser (whose requests also come from this machine) cannot press them.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { DemoFleet } from '@platform/gateway-sim';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError } from '../../platform/envelope';
import { LogSmsProvider } from '../../platform/sms';
import { SCAN_PAGE_HEADERS } from '../auth/scan-page';
import { demoDevicesPage } from './demo-devices-page';
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

  // one token per server process, carried by the page's forms (see the top of this file)
  const token = randomBytes(18).toString('base64url');
  const tokenMatches = (given: string) => {
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  const demoFleet = (request: FastifyRequest): DemoFleet => {
    const fleet = app.demoDevices.fleet;
    if (app.config.databaseUrl || !fleet || !fromThisMachine(request)) throw new AppError('routeNotFound');
    return fleet;
  };

  app.get(
    '/dev/demoDevices',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['devtools'],
        summary:
          'Embedded default only, from this machine only: the simulated demo gateways and the buttons on their boxes (HTML)',
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      const fleet = demoFleet(request);
      return reply
        .code(200)
        .headers(SCAN_PAGE_HEADERS)
        .send(demoDevicesPage(fleet.list(), token, null));
    },
  );

  app.post(
    '/dev/demoDevices',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['devtools'],
        summary:
          'Embedded default only, from this machine only: press a button of a demo gateway (the page’s form)',
        consumes: ['application/x-www-form-urlencoded'],
        body: Type.Object({
          token: Type.String({ maxLength: 100 }),
          sn: Type.String({ maxLength: 32 }),
          action: Type.String({ maxLength: 32 }),
        }),
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      const fleet = demoFleet(request);
      const { token: given, sn, action } = request.body;
      if (!tokenMatches(given)) throw new AppError('routeNotFound');
      // a power cut lasts until "power on" is pressed; the control checks everything else
      const result = await fleet.control({ sn, action, ...(action === 'powerCut' ? { seconds: 3600 } : {}) });
      const flash = result.ok ? `${sn}: ${result.detail ?? action} ✓` : `${sn}: ${result.message}`;
      return reply
        .code(200)
        .headers(SCAN_PAGE_HEADERS)
        .send(demoDevicesPage(fleet.list(), token, flash));
    },
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the embedded default's simulated demo gateways, once main.ts started them */
    demoDevices: { fleet: DemoFleet | null };
  }
}
