/**
 * Login and registration: password or SMS-code login, SMS codes, registration, password
 * reset, logout; the scan-code login lives in scan-routes.ts. Every public route is rate
 * limited per client address (LOGIN_RATE_LIMIT per minute), and every check of a password
 * or a code also per phone, with backoff (throttle.ts).
 *
 * None of these routes tells a stranger whether a phone has an account: an unknown phone and
 * a wrong password get the same answer after the same work, and "not registered" / "already
 * registered" are said only to someone who has just proved the phone with its SMS code.
 */
import { checkName, checkPassword, checkPhone } from '@platform/domain';
import { Type } from 'typebox';
import { caller } from '../../platform/auth';
import type { App } from '../../platform/context';
import { assertField, fieldError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Phone } from '../../platform/schemas';
import { revokeToken } from '../../platform/tokens';
import { findUserByPhone } from '../users/service';
import scanRoutes from './scan-routes';
import { Password, SmsCode, TokenData } from './schemas';
import {
  authenticateByPassword,
  claimAccount,
  dummyPasswordHash,
  loginTokenFor,
  registerUser,
  resetPassword,
} from './service';
import { consumeSmsCode, issueSmsCode, proveSmsCode } from './sms-codes';

export default async function authRoutes(app: App): Promise<void> {
  const loginLimit = { max: app.config.loginRateLimit, timeWindow: '1 minute' };
  // made now, so the first unknown phone does not pay for it
  void dummyPasswordHash();

  app.post(
    '/user/access/getToken',
    {
      config: { permission: 'public', rateLimit: loginLimit },
      schema: {
        tags: ['auth'],
        summary: 'Log in with phone and either password or SMS code (form-encoded); returns the token',
        consumes: ['application/x-www-form-urlencoded'],
        body: Type.Object({
          phone: Phone,
          password: Type.Optional(Password),
          smsCode: Type.Optional(SmsCode),
        }),
        response: { 200: Envelope(TokenData) },
      },
    },
    async (request) => {
      const { phone, password, smsCode } = request.body;
      if (password == null && smsCode == null) throw fieldError('password', 'fieldRequired');
      if (password != null && smsCode != null) throw fieldError('smsCode');
      assertField('phone', checkPhone(phone));
      if (smsCode != null) {
        const codeId = await proveSmsCode(app.db, phone, smsCode);
        // the code proved the phone: its owner may learn that it has no account (the code stays usable)
        const user = await findUserByPhone(app.db, phone);
        if (!user) throw fieldError('phone', 'phoneNotRegistered');
        await consumeSmsCode(app.db, codeId);
        return ok(await loginTokenFor(app.db, user, app.config.tokenTtlHours));
      }
      const user = await authenticateByPassword(app.db, phone, password!);
      return ok(await loginTokenFor(app.db, user, app.config.tokenTtlHours));
    },
  );

  app.get(
    '/user/access/getSmsCode',
    {
      config: { permission: 'public', rateLimit: loginLimit },
      schema: {
        tags: ['auth'],
        summary:
          'Send a 6-digit login code to the phone (at most one a minute, and waits that grow after five; valid 5 minutes)',
        querystring: Type.Object({ phone: Phone }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { phone } = request.query;
      assertField('phone', checkPhone(phone));
      await issueSmsCode(app.db, app.sms, phone);
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/user/addUser',
    {
      config: { permission: 'public', rateLimit: loginLimit },
      schema: {
        tags: ['auth'],
        summary:
          'Register with phone, SMS code and password; the new account has no company yet (an account made for an invitation to this phone becomes theirs, its invitations pending)',
        body: Type.Object({
          phone: Phone,
          smsCode: SmsCode,
          password: Password,
          userName: Type.Optional(Type.String({ maxLength: 100 })),
        }),
        response: { 200: Envelope(TokenData) },
      },
    },
    async (request) => {
      const { phone, smsCode, password } = request.body;
      const userName = request.body.userName?.trim() || undefined;
      assertField('phone', checkPhone(phone));
      assertField('password', checkPassword(password));
      if (userName !== undefined) assertField('userName', checkName(userName));
      const codeId = await proveSmsCode(app.db, phone, smsCode);
      // said only to the phone's owner; the code stays usable (for a password reset, say). An
      // account made for an invitation is not taken: registering claims it (claimAccount)
      const existing = await findUserByPhone(app.db, phone);
      if (existing && !existing.unclaimed) throw fieldError('phone', 'phoneTaken');
      await consumeSmsCode(app.db, codeId);
      const user = existing
        ? await claimAccount(app.db, existing, { password, userName })
        : await registerUser(app.db, { phone, password, userName });
      return ok(await loginTokenFor(app.db, user, app.config.tokenTtlHours), 'operation', request.lang);
    },
  );

  app.post(
    '/user/access/resetPassword',
    {
      config: { permission: 'public', rateLimit: loginLimit },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with an SMS code; every session of the account ends',
        body: Type.Object({ phone: Phone, smsCode: SmsCode, password: Password }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { phone, smsCode, password } = request.body;
      assertField('phone', checkPhone(phone));
      assertField('password', checkPassword(password));
      const codeId = await proveSmsCode(app.db, phone, smsCode);
      // said only to the phone's owner; the code stays usable (to register, say)
      const user = await findUserByPhone(app.db, phone);
      if (!user) throw fieldError('phone', 'phoneNotRegistered');
      await consumeSmsCode(app.db, codeId);
      await resetPassword(app.db, user.id, password);
      return ok(null, 'operation', request.lang);
    },
  );

  app.get(
    '/user/access/logout',
    {
      config: { permission: 'login' },
      schema: { tags: ['auth'], summary: 'Revoke the current token', response: { 200: EmptyEnvelope } },
    },
    async (request) => {
      await revokeToken(app.db, caller(request).token);
      return ok(null, 'operation', request.lang);
    },
  );

  await scanRoutes(app);
}
