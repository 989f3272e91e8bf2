import { Type } from 'typebox';
import { caller, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { fieldError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id } from '../../platform/schemas';
import { isActiveMember } from '../companies/service';
import { addDelegation, deleteDelegation, listDelegations } from './service';

const Delegate = Type.Object({
  id: Type.Integer(),
  delegateId: Type.Integer(),
  delegateName: Type.String(),
  delegatePhone: Type.String(),
  createdAt: Type.String(),
});

const Delegator = Type.Object({
  id: Type.Integer(),
  delegatorId: Type.Integer(),
  delegatorName: Type.String(),
  delegatorPhone: Type.String(),
  createdAt: Type.String(),
});

export default async function delegationRoutes(app: App): Promise<void> {
  app.get(
    '/company/getAlertDelegations',
    {
      config: { permission: 'member' },
      schema: {
        tags: ['delegations'],
        summary: "The caller's delegates: people who also receive the caller's alerts",
        response: { 200: Envelope(Type.Array(Delegate)) },
      },
    },
    async (request) => {
      const rows = await listDelegations(app.db, callerCompany(request), caller(request).userId, 'delegator');
      return ok(
        rows.map((r) => ({
          id: r.id,
          delegateId: r.userId,
          delegateName: r.userName,
          delegatePhone: r.phone,
          createdAt: r.createdAt,
        })),
      );
    },
  );

  app.get(
    '/company/getAlertDelegatorList',
    {
      config: { permission: 'member' },
      schema: {
        tags: ['delegations'],
        summary: 'People who delegate their alerts to the caller',
        response: { 200: Envelope(Type.Array(Delegator)) },
      },
    },
    async (request) => {
      const rows = await listDelegations(app.db, callerCompany(request), caller(request).userId, 'delegate');
      return ok(
        rows.map((r) => ({
          id: r.id,
          delegatorId: r.userId,
          delegatorName: r.userName,
          delegatorPhone: r.phone,
          createdAt: r.createdAt,
        })),
      );
    },
  );

  app.post(
    '/company/addAlertDelegator',
    {
      config: { permission: 'member' },
      schema: {
        tags: ['delegations'],
        summary: "Send the caller's alerts to another active member of the company as well",
        body: Type.Object({ delegateId: Id }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (request) => {
      const companyId = callerCompany(request);
      const { userId } = caller(request);
      const { delegateId } = request.body;
      if (delegateId === userId) throw fieldError('delegateId', 'delegateSelf');
      if (!(await isActiveMember(app.db, companyId, delegateId))) throw fieldError('delegateId', 'notMember');
      const id = await addDelegation(app.db, { companyId, delegatorId: userId, delegateId });
      return ok({ id }, 'operation', request.lang);
    },
  );

  app.post(
    '/company/deleteAlertDelegator',
    {
      config: { permission: 'member' },
      schema: {
        tags: ['delegations'],
        summary: "Remove one of the caller's own delegations",
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await deleteDelegation(app.db, callerCompany(request), caller(request).userId, request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );
}
