/**
 * Routes of the scan-code login (see scan.ts for the flow): the QR code, the polling, the
 * phone binding, and the two kinds of callback: the messaging-app stand-in's pages and the
 * real provider's OAuth redirect. Only the active provider's callback answers; the other
 * says that scan-code login is not configured.
 */
import { checkName, checkPhone } from '@platform/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError, assertField, ok } from '../../platform/envelope';
import { Envelope, Phone } from '../../platform/schemas';
import {
  claimScanForCode,
  completeClaimedScan,
  confirmStandInScan,
  createScanSession,
  failClaimedScan,
  openScanSession,
  pollScanSession,
  registerScanPhone,
  standInSessionOpenness,
} from './scan';
import {
  CALLBACK_PAGE_HEADERS,
  SCAN_PAGE_HEADERS,
  scanConfirmedPage,
  scanExpiredPage,
  scanFailedPage,
  scanFormPage,
  scanUnavailablePage,
} from './scan-page';
import {
  STAND_IN_COOKIE,
  STAND_IN_NAME_COOKIE,
  STAND_IN_PATH,
  StandInProvider,
  scanProviderFor,
} from './scan-providers';
import { SmsCode, TokenData } from './schemas';
import { WechatLogin, WechatLoginError, withoutControlCharacters } from './wechat';

/** Both are base64url; anything else (a NUL, say) is refused before it reaches the database. */
const RANDOM_ID = '^[A-Za-z0-9_-]+$';
const SceneId = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: RANDOM_ID,
  description: 'the id from getWXScanQrCode',
});
const State = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: RANDOM_ID,
  description: "the session's state, from scanUrl",
});
/** The browser keeps its stand-in identity about as long as browsers keep cookies (400 days). */
const STAND_IN_COOKIE_MAX_AGE_S = 400 * 24 * 3600;

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

function sendPage(
  reply: FastifyReply,
  status: number,
  html: string,
  headers: Record<string, string> = SCAN_PAGE_HEADERS,
): FastifyReply {
  return reply.code(status).headers(headers).send(html);
}

function cookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      try {
        return decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** A cookie only the stand-in's pages receive, never readable by scripts, never sent by a cross-site POST. */
function standInCookie(request: FastifyRequest, name: string, value: string): string {
  const attributes = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${STAND_IN_PATH}`,
    `Max-Age=${STAND_IN_COOKIE_MAX_AGE_S}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (request.protocol === 'https') attributes.push('Secure');
  return attributes.join('; ');
}

export default async function scanRoutes(app: App): Promise<void> {
  const loginLimit = { max: app.config.loginRateLimit, timeWindow: '1 minute' };
  // the login page polls every 2 s: generous, but still bounded
  const pollLimit = { max: 120, timeWindow: '1 minute' };
  const provider = scanProviderFor(app.config);
  const standIn = provider instanceof StandInProvider ? provider : null;
  const wechat = provider instanceof WechatLogin ? provider : null;
  const origin = (request: FastifyRequest) =>
    app.config.publicUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;

  app.get(
    '/user/access/getWXScanQrCode',
    {
      config: { permission: 'public', rateLimit: loginLimit },
      schema: {
        tags: ['auth'],
        summary:
          'Start a scan-code login: show scanUrl (display qr: as a QR code; embed: in a frame), then poll PollingWXScanLoginStatus',
        description: 'When no provider is configured: 40400 scanNotConfigured.',
        response: {
          200: Envelope(
            Type.Object({
              sceneId: Type.String({ description: 'the secret to poll with; never shown in the QR code' }),
              scanUrl: Type.String(),
              expiresIn: Type.Integer({ description: 'seconds' }),
              provider: Type.Union([Type.Literal('standin'), Type.Literal('wechat')]),
              display: Type.Union([Type.Literal('qr'), Type.Literal('embed')]),
            }),
          ),
        },
      },
    },
    async (request) => {
      if (!provider) throw new AppError('scanNotConfigured');
      const session = await createScanSession(app.db, provider.kind);
      return ok({
        sceneId: session.sceneId,
        scanUrl: provider.scanUrl(session.state, origin(request)),
        expiresIn: session.expiresIn,
        provider: provider.kind,
        display: provider.display,
      });
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
    '/user/wxScan/:state',
    {
      config: { permission: 'public', rateLimit: loginLimit },
      schema: {
        tags: ['auth'],
        summary:
          'The messaging-app stand-in page the QR code opens (HTML); gives a browser its stand-in identity the first time',
        params: Type.Object({ state: State }),
        ...HtmlPage,
      },
    },
    async (request, reply) => {
      if (!standIn) return sendPage(reply, 404, scanUnavailablePage());
      // only a GET gives an identity, and only to a browser without one; a top-level GET
      // carries the (SameSite=Lax) cookie even from another site, and a cross-site frame or
      // fetch cannot store one, so no request can replace the identity a browser holds
      if (!standIn.validSecret(cookie(request, STAND_IN_COOKIE))) {
        reply.header('set-cookie', standInCookie(request, STAND_IN_COOKIE, standIn.newSecret()));
      }
      const found = await openScanSession(app.db, request.params.state);
      if (found !== 'open') return sendPage(reply, found === 'unknown' ? 404 : 410, scanExpiredPage());
      return sendPage(reply, 200, scanFormPage({ nickname: cookie(request, STAND_IN_NAME_COOKIE) }));
    },
  );

  app.post(
    '/user/wxScan/:state',
    {
      config: { permission: 'public', rateLimit: loginLimit },
      schema: {
        tags: ['auth'],
        summary:
          "Confirm on the stand-in page, as the identity this browser holds; the nickname is only the account's display name (HTML)",
        consumes: ['application/x-www-form-urlencoded'],
        params: Type.Object({ state: State }),
        body: Type.Object({ nickname: Type.Optional(Type.String({ maxLength: 200 })) }),
        ...HtmlPage,
      },
    },
    async (request, reply) => {
      if (!standIn) return sendPage(reply, 404, scanUnavailablePage());
      const { state } = request.params;
      const found = await standInSessionOpenness(app.db, state);
      if (found !== 'open') return sendPage(reply, found === 'unknown' ? 404 : 410, scanExpiredPage());
      const nickname = withoutControlCharacters(request.body.nickname ?? '').trim();
      const broken = checkName(nickname);
      if (broken) return sendPage(reply, 400, scanFormPage({ nickname, error: broken }));
      const secret = standIn.validSecret(cookie(request, STAND_IN_COOKIE));
      if (!secret) return sendPage(reply, 400, scanFormPage({ nickname, error: 'scanIdentityMissing' }));
      const next = await confirmStandInScan(app.db, state, standIn.identity(secret, nickname));
      if (next === 'confirmed' || next === 'needPhone') {
        reply.header('set-cookie', standInCookie(request, STAND_IN_NAME_COOKIE, nickname));
        return sendPage(reply, 200, scanConfirmedPage(nickname));
      }
      return sendPage(reply, next === 'unknown' ? 404 : 410, scanExpiredPage());
    },
  );

  app.get(
    '/user/access/wxLoginCallback',
    {
      config: { permission: 'public', rateLimit: loginLimit },
      schema: {
        tags: ['auth'],
        summary:
          "The messaging app's OAuth redirect (redirect_uri): exchanges the code for the identity of the session named by state (HTML, shown in the login page's frame)",
        querystring: Type.Object({
          code: Type.Optional(Type.String({ maxLength: 256 })),
          state: Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9_-]*$' })),
        }),
        ...HtmlPage,
      },
    },
    async (request, reply) => {
      const send = (status: number, html: string) => sendPage(reply, status, html, CALLBACK_PAGE_HEADERS);
      if (!wechat) return send(404, scanUnavailablePage());
      const { code, state } = request.query;
      // no code: the person declined in the app
      if (!state) return send(400, scanExpiredPage());
      if (!code) return send(400, scanFailedPage());
      const sceneId = await claimScanForCode(app.db, state, code);
      // a state no open session has: forged, replayed, or too late; the code is not spent
      if (!sceneId) return send(410, scanExpiredPage());
      let identity: Awaited<ReturnType<WechatLogin['identify']>>;
      try {
        identity = await wechat.identify(code);
      } catch (error) {
        if (!(error instanceof WechatLoginError)) throw error;
        request.log.warn({ scanLogin: error.message }, 'scan-code login: the provider refused the code');
        await failClaimedScan(app.db, sceneId);
        return send(502, scanFailedPage());
      }
      const next = await completeClaimedScan(app.db, sceneId, identity);
      if (next === 'expired') return send(410, scanExpiredPage());
      return send(200, scanConfirmedPage(identity.nickname));
    },
  );
}
