import { checkPhone } from '@platform/domain';
import { Type } from 'typebox';
import { caller, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { assertField, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Phone } from '../../platform/schemas';
import { authorityIn } from '../roles/service';
import { grantableRoles } from '../users/members';
import { acceptInvitation, inviteByPhone, listInvitations, refuseInvitation } from './invitations';

const Invitation = Type.Object({
  companyId: Type.Integer(),
  companyName: Type.String(),
  invitedBy: Type.Union([Type.String(), Type.Null()], { description: "the inviter's user name" }),
  createdAt: Type.String(),
});

const CompanyQuery = Type.Object({ companyId: Id });

export default async function invitationRoutes(app: App): Promise<void> {
  app.post(
    '/company/member/inviteMember',
    {
      config: { permission: 'um_user' },
      schema: {
        tags: ['companies'],
        summary:
          'Invite a person by phone; the roles are granted on acceptance. The same answer whether or not the phone has an account (as addSysUser, without a name)',
        body: Type.Object({ phone: Phone, roleIds: Type.Array(Id, { maxItems: 100 }) }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { phone, roleIds } = request.body;
      assertField('phone', checkPhone(phone));
      const auth = caller(request);
      const companyId = callerCompany(request);
      const authority = await authorityIn(app.db, companyId, auth.userId);
      const roles = await grantableRoles(app.db, companyId, roleIds, authority);
      await inviteByPhone(app.db, { companyId, phone, name: null, roles, invitedBy: auth.userId });
      return ok(null, 'invitationSent', request.lang);
    },
  );

  app.get(
    '/company/member/getMyInvitations',
    {
      config: { permission: 'login' },
      schema: {
        tags: ['companies'],
        summary: 'Pending invitations addressed to the caller',
        response: { 200: Envelope(Type.Array(Invitation)) },
      },
    },
    async (request) => ok(await listInvitations(app.db, caller(request).userId)),
  );

  app.get(
    '/company/member/agreeInvitation',
    {
      config: { permission: 'login' },
      schema: {
        tags: ['companies'],
        summary: 'Accept an invitation: become an active member with the invited roles',
        querystring: CompanyQuery,
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const auth = caller(request);
      await acceptInvitation(app.db, {
        userId: auth.userId,
        companyId: request.query.companyId,
        hasCurrentCompany: auth.companyId != null,
      });
      return ok(null, 'operation', request.lang);
    },
  );

  app.get(
    '/company/member/refuseInvitation',
    {
      config: { permission: 'login' },
      schema: {
        tags: ['companies'],
        summary: 'Refuse an invitation',
        querystring: CompanyQuery,
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await refuseInvitation(app.db, { userId: caller(request).userId, companyId: request.query.companyId });
      return ok(null, 'operation', request.lang);
    },
  );
}
