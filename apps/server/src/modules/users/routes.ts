import { checkEmail, checkName, checkPassword } from '@platform/domain';
import { Type } from 'typebox';
import { caller } from '../../platform/auth';
import type { App } from '../../platform/context';
import { assertField, fieldError, ok } from '../../platform/envelope';
import { verifyPassword } from '../../platform/password';
import { EmptyEnvelope, Envelope, Page, Paging, paging } from '../../platform/schemas';
import avatarRoutes from './avatar-routes';
import { currentUserView } from './current-user';
import memberRoutes from './member-routes';
import { acceptTerms, changePassword, findUserById, updateProfile } from './service';

const NullableString = Type.Union([Type.String(), Type.Null()]);

const CurrentUser = Type.Object({
  userId: Type.Integer(),
  userName: Type.String(),
  phone: Type.String(),
  email: NullableString,
  headImgUrl: Type.Union([Type.String(), Type.Null()], { description: 'null: show the default avatar' }),
  orderInfo: Type.Union(
    [Type.Object({ swProductId: Type.Integer(), subTypeId: Type.Integer() }), Type.Null()],
    { description: "the current company's paid order in force now" },
  ),
  menuCode: Type.Array(Type.String()),
  companyId: Type.Union([Type.Integer(), Type.Null()]),
  companies: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      displayName: Type.String(),
      logoUrl: NullableString,
    }),
  ),
  termsAccepted: Type.Boolean(),
  serviceExpiresAt: Type.Union([Type.String(), Type.Null()], {
    description: "the later of the company's expiry and its furthest paid order's end",
  }),
  expiryNoticeDays: Type.Integer(),
});

const Assignment = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  status: Type.String(),
  dueAt: Type.Union([Type.String(), Type.Null()]),
});

export default async function usersRoutes(app: App): Promise<void> {
  const loginLimit = { max: app.config.loginRateLimit, timeWindow: '1 minute' };

  app.get(
    '/user/getUser',
    {
      config: { permission: 'login' },
      schema: {
        tags: ['users'],
        summary: 'The current user with menu codes, companies and service state',
        response: { 200: Envelope(CurrentUser) },
      },
    },
    async (request) => ok(await currentUserView(app.db, caller(request), app.config.expiryNoticeDays)),
  );

  app.post(
    '/user/updateUser',
    {
      config: { permission: 'login' },
      schema: {
        tags: ['users'],
        summary: "Change the caller's name or email (an empty email clears it)",
        body: Type.Object({
          userName: Type.Optional(Type.String({ maxLength: 200 })),
          email: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
        }),
        response: {
          200: Envelope(
            Type.Object({ userId: Type.Integer(), userName: Type.String(), email: NullableString }),
          ),
        },
      },
    },
    async (request) => {
      const { body } = request;
      const userName = body.userName?.trim();
      if (userName !== undefined) assertField('userName', checkName(userName));
      const email = body.email === undefined ? undefined : body.email?.trim() || null;
      if (email) assertField('email', checkEmail(email));
      const user = await updateProfile(app.db, caller(request).userId, { userName, email });
      return ok({ userId: user.id, userName: user.userName, email: user.email }, 'operation', request.lang);
    },
  );

  app.post(
    '/user/updatePassword',
    {
      // limited like login: a stolen token must not become a way to guess the password
      config: { permission: 'login', rateLimit: loginLimit },
      schema: {
        tags: ['users'],
        summary: "Change the caller's password; the caller's other sessions end",
        body: Type.Object({
          oldPassword: Type.String({ maxLength: 128 }),
          password: Type.String({ maxLength: 128 }),
        }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const auth = caller(request);
      const { oldPassword, password } = request.body;
      assertField('password', checkPassword(password));
      const user = await findUserById(app.db, auth.userId);
      if (!(await verifyPassword(oldPassword, user?.passwordHash)))
        throw fieldError('oldPassword', 'oldPasswordWrong');
      await changePassword(app.db, auth.userId, password, auth.token);
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/user/acceptTerms',
    {
      config: { permission: 'login' },
      schema: {
        tags: ['users'],
        summary: 'Accept the terms of use (the box must be ticked: accepted true)',
        body: Type.Object({ accepted: Type.Boolean() }),
        response: { 200: Envelope(Type.Object({ termsAcceptedAt: Type.String() })) },
      },
    },
    async (request) => {
      if (request.body.accepted !== true) throw fieldError('accepted', 'termsNotAccepted');
      const at = await acceptTerms(app.db, caller(request).userId);
      return ok({ termsAcceptedAt: at.toISOString() }, 'operation', request.lang);
    },
  );

  app.get(
    '/user/getMyAssignments',
    {
      config: { permission: 'pc_my_assignment' },
      schema: {
        tags: ['users'],
        summary: "The caller's task assignments (empty until task automation lands)",
        querystring: Type.Object({ ...Paging }),
        response: { 200: Envelope(Page(Assignment)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      // Task automation (smart_assignment) is not built yet, so nobody has assignments; the route
      // exists so the personal center works now and keeps its shape when tasks arrive.
      return ok({ list: [], total: 0, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  await app.register(avatarRoutes);
  await app.register(memberRoutes);
}
