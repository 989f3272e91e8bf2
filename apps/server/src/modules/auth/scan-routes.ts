/** Routes of the scan-code login (see scan.ts for the flow) and the messaging-app stand-in pages. */
import { checkName, checkPhone } from '@platform/domain';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { assertField, ok } from '../../platform/envelope';
import { Envelope, Phone } from '../../platform/schemas';
import {
  confirmScanSession,
  createScanSession,
  openScanSession,
  pollScanSession,
  registerScanPhone,
} from './scan';
import { SCAN_PAGE_HEADERS, scanConfirmedPage, scanExpiredPage, scanFormPage } from './scan-page';
import { SmsCode, TokenData } from './schemas';

const SceneId = Type.String({ minLength: 1, maxLength: 64, description: 'the id from getWXScanQrCode' });

const PollData = Type.Object({
  status: Type.Union([
    Type.Literal('waiting'),
    Type.Literal('scanned'),
    Type.Literal('needPhone'),
    Type.Literal('success'),
    Type.Literal('expired'),
  ]),
  token: Type.Optional(Type.String({ description: 'only with success, handed out once' })),
  expiresIn: Type.Optional(Type.Integer({ description: 'seconds; only with success' })),
  nickname: Type.Optional(Type.String({ description: 'only with needPhone' })),
});

const HtmlPage = {
  produces: ['text/html'],
  response: {
    200: { description: 'an HTML page', content: { 'text/html': { schema: { type: 'string' } } } },
  },
};

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(SCAN_PAGE_HEADERS).send(html);
}

export default async function scanRoutes(app: App): Promise<void> {
  const loginLimit = { max: app.config.loginRateLimit, timeWindow: '1 minute' };
  // the login page polls every 2 s: generous, but still bounded
  const pollLimit = { max: 120, timeWindow: '1 minute' };

  app.get(
    '/user/access/getWXScanQrCode',
    {
      config: { permission: 'public', rateLimit: loginLimit },
      schema: {
        tags: ['auth'],
        summary: 'Start a scan-code login: show scanUrl as a QR code, then poll PollingWXScanLoginStatus',
        response: {
          200: Envelope(
            Type.Object({
              sceneId: Type.String(),
              scanUrl: Type.String(),
              expiresIn: Type.Integer({ description: 'seconds' }),
            }),
          ),
        },
      },
    },
    async (request) => {
      const session = await createScanSession(app.db);
      const origin = app.config.publicUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;
      return ok({ ...session, scanUrl: `${origin}/general/user/wxScan/${session.sceneId}` });
    },
  );

  app.get(
    '/user/PollingWXScanLoginStatus',
    {
      config: { permission: 'public', rateLimit: pollLimit },
      schema: {
        tags: ['auth'],
        summary: 'Poll a scan-code login; the token of a confirmed scan is handed out once',
        querystring: Type.Object({ sceneId: SceneId }),
        response: { 200: Envelope(PollData) },
      },
    },
    async (request) => ok(await pollScanSession(app.db, request.query.sceneId, app.config.tokenTtlHours)),
  );

  app.post(
    '/user/WXScanPhoneRegister',
    {
      config: { permission: 'public', rateLimit: loginLimit },
      schema: {
        tags: ['auth'],
        summary: "Bind a scanned identity (status needPhone) to the phone's account, creating one if needed",
        body: Type.Object({ sceneId: SceneId, phone: Phone, smsCode: SmsCode }),
        response: { 200: Envelope(TokenData) },
      },
    },
    async (request) => {
      const { sceneId, phone, smsCode } = request.body;
      assertField('phone', checkPhone(phone));
      return ok(await registerScanPhone(app.db, { sceneId, phone, smsCode }, app.config.tokenTtlHours));
    },
  );

  app.get(
    '/user/wxScan/:sceneId',
    {
      config: { permission: 'public', rateLimit: loginLimit },
      schema: {
        tags: ['auth'],
        summary: 'The messaging-app stand-in page the QR code opens (HTML)',
        params: Type.Object({ sceneId: SceneId }),
        ...HtmlPage,
      },
    },
    async (request, reply) => {
      const state = await openScanSession(app.db, request.params.sceneId);
      if (state === 'open') return sendPage(reply, 200, scanFormPage());
      return sendPage(reply, state === 'unknown' ? 404 : 410, scanExpiredPage());
    },
  );

  app.post(
    '/user/wxScan/:sceneId',
    {
      config: { permission: 'public', rateLimit: loginLimit },
      schema: {
        tags: ['auth'],
        summary: 'Confirm on the stand-in page as the nickname given (HTML)',
        consumes: ['application/x-www-form-urlencoded'],
        params: Type.Object({ sceneId: SceneId }),
        body: Type.Object({ nickname: Type.Optional(Type.String({ maxLength: 200 })) }),
        ...HtmlPage,
      },
    },
    async (request, reply) => {
      const nickname = (request.body.nickname ?? '').trim();
      const broken = checkName(nickname);
      if (broken) return sendPage(reply, 400, scanFormPage({ nickname, error: broken }));
      const state = await confirmScanSession(app.db, request.params.sceneId, nickname);
      if (state === 'confirmed' || state === 'needPhone')
        return sendPage(reply, 200, scanConfirmedPage(nickname));
      return sendPage(reply, state === 'unknown' ? 404 : 410, scanExpiredPage());
    },
  );
}
