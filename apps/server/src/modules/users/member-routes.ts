import { checkName, checkPhone } from '@platform/domain';
import { Type } from 'typebox';
import { caller, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { assertField, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Page, Paging, Phone, paging } from '../../platform/schemas';
import { inviteByPhone } from '../companies/invitations';
import { authorityIn } from '../roles/service';
import { grantableRoles, listMembers, listSysUsers, removeSysUser, updateSysUser } from './members';

const SysUserRow = Type.Object({
  userId: Type.Integer(),
  userName: Type.String(),
  phone: Type.String(),
  status: Type.Integer({ description: 'the account: 1 enabled, 0 disabled' }),
  memberStatus: Type.String({ description: 'active | invited' }),
  roleIds: Type.Array(Type.Integer(), { description: 'for an invited member: the roles they will get' }),
  roleNames: Type.Array(Type.String()),
  joinedAt: Type.Union([Type.String(), Type.Null()]),
});

const MemberRow = Type.Object({
  userId: Type.Integer(),
  userName: Type.String(),
  phone: Type.String(),
  headImgUrl: Type.Union([Type.String(), Type.Null()]),
});

const ListQuery = Type.Object({ ...Paging, keyword: Type.Optional(Type.String({ maxLength: 50 })) });
const RoleIds = Type.Array(Id, { maxItems: 50 });

function checkedUserName(value: string): string {
  const name = value.trim();
  assertField('userName', checkName(name));
  return name;
}

export default async function memberRoutes(app: App): Promise<void> {
  app.get(
    '/user/getSysUserList',
    {
      config: { permission: 'um_user' },
      schema: {
        tags: ['users'],
        summary: "Active and invited members of the caller's company with their roles",
        querystring: ListQuery,
        response: { 200: Envelope(Page(SysUserRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const { list, total } = await listSysUsers(app.db, callerCompany(request), {
        keyword: request.query.keyword,
        ...page,
      });
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.post(
    '/user/addSysUser',
    {
      config: { permission: 'um_user' },
      schema: {
        tags: ['users'],
        summary:
          'Invite a person by phone, with the name the company knows them by and the roles they get on accepting. The same answer whether or not the phone has an account; a new phone gets an account its owner claims by registering or logging in with an SMS code',
        body: Type.Object({
          phone: Phone,
          userName: Type.String({
            maxLength: 200,
            description: "the company's name for the person while invited",
          }),
          roleIds: RoleIds,
        }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const auth = caller(request);
      const companyId = callerCompany(request);
      const { body } = request;
      assertField('phone', checkPhone(body.phone));
      const name = checkedUserName(body.userName);
      const authority = await authorityIn(app.db, companyId, auth.userId);
      const roles = await grantableRoles(app.db, companyId, body.roleIds, authority);
      await inviteByPhone(app.db, { companyId, phone: body.phone, name, roles, invitedBy: auth.userId });
      return ok(null, 'invitationSent', request.lang);
    },
  );

  app.post(
    '/user/updateSysUser',
    {
      config: { permission: 'um_user' },
      schema: {
        tags: ['users'],
        summary:
          "Change a member's roles, or the account's name and enabled flag when this company is its only one",
        body: Type.Object({
          userId: Id,
          userName: Type.Optional(Type.String({ maxLength: 200 })),
          status: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)], { description: '1 enabled' })),
          roleIds: Type.Optional(RoleIds),
        }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const auth = caller(request);
      const companyId = callerCompany(request);
      const { body } = request;
      const userName = body.userName == null ? undefined : checkedUserName(body.userName);
      const authority = await authorityIn(app.db, companyId, auth.userId);
      const roles =
        body.roleIds == null ? undefined : await grantableRoles(app.db, companyId, body.roleIds, authority);
      await updateSysUser(app.db, {
        companyId,
        callerId: auth.userId,
        authority,
        userId: body.userId,
        userName,
        status: body.status,
        roles,
      });
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/user/removeSysUser',
    {
      config: { permission: 'um_user' },
      schema: {
        tags: ['users'],
        summary: 'Remove a member from the company (the account stays)',
        body: Type.Object({ userId: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const companyId = callerCompany(request);
      await removeSysUser(app.db, {
        companyId,
        userId: request.body.userId,
        authority: await authorityIn(app.db, companyId, caller(request).userId),
      });
      return ok(null, 'deleted', request.lang);
    },
  );

  app.get(
    '/company/member/getMemberList',
    {
      config: { permission: 'member' },
      schema: {
        tags: ['users'],
        summary: 'Active members of the current company',
        querystring: ListQuery,
        response: { 200: Envelope(Page(MemberRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const { list, total } = await listMembers(app.db, callerCompany(request), {
        keyword: request.query.keyword,
        ...page,
      });
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );
}
