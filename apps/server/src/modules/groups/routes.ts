import { checkName } from '@platform/domain';
import { Type } from 'typebox';
import { caller, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError, assertField, fieldError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Page, Paging, paging } from '../../platform/schemas';
import { assertMembershipWithin } from '../cabin/permissions';
import { nonMembers } from '../companies/service';
import {
  addGroup,
  addGroupMembers,
  deleteGroup,
  groupMemberIds,
  groupOf,
  listGroupMembers,
  listGroups,
  removeGroupMember,
} from './service';

const GroupRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  memberCount: Type.Integer(),
  ownerId: Type.Union([Type.Integer(), Type.Null()]),
});

const GroupMember = Type.Object({ userId: Type.Integer(), userName: Type.String(), phone: Type.String() });

export const MAX_USER_IDS = 200;

/** `userIds` of a query string: JSON array text of user ids (spec point 7), e.g. `[5,6]`. */
export function parseUserIds(text: string): number[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fieldError('userIds');
  }
  if (!Array.isArray(value)) throw fieldError('userIds');
  if (value.length === 0) throw fieldError('userIds', 'fieldRequired');
  const valid = (v: unknown): v is number =>
    Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 2 ** 31 - 1;
  if (value.length > MAX_USER_IDS || !value.every(valid)) throw fieldError('userIds');
  return [...new Set(value as number[])];
}

export default async function groupRoutes(app: App): Promise<void> {
  app.get(
    '/company/group/getGroupList',
    {
      config: { permission: 'um_user_group' },
      schema: {
        tags: ['groups'],
        summary: "The current company's user groups",
        querystring: Type.Object({ ...Paging, keyword: Type.Optional(Type.String({ maxLength: 50 })) }),
        response: { 200: Envelope(Page(GroupRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const { list, total } = await listGroups(app.db, callerCompany(request), {
        keyword: request.query.keyword,
        limit: page.limit,
        offset: page.offset,
      });
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.get(
    '/company/group/getGroupMembers',
    {
      config: { permission: 'um_user_group' },
      schema: {
        tags: ['groups'],
        summary: 'Members of a group',
        querystring: Type.Object({ groupId: Id }),
        response: { 200: Envelope(Type.Array(GroupMember)) },
      },
    },
    async (request) => ok(await listGroupMembers(app.db, callerCompany(request), request.query.groupId)),
  );

  app.post(
    '/company/group/addGroup',
    {
      config: { permission: 'um_user_group' },
      schema: {
        tags: ['groups'],
        summary: 'Create a group (names are unique per company)',
        body: Type.Object({
          name: Type.String(),
          description: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
        }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (request) => {
      const name = request.body.name.trim();
      assertField('name', checkName(name));
      const id = await addGroup(app.db, {
        companyId: callerCompany(request),
        name,
        description: request.body.description?.trim() || null,
        ownerId: caller(request).userId,
      });
      return ok({ id }, 'operation', request.lang);
    },
  );

  app.post(
    '/company/group/deleteGroup',
    {
      config: { permission: 'um_user_group' },
      schema: {
        tags: ['groups'],
        summary: 'Delete a group (its memberships go with it)',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const actor = { companyId: callerCompany(request), userId: caller(request).userId };
      const userIds = await groupMemberIds(app.db, actor.companyId, request.body.id);
      // a group that restricts its members frees them when it goes
      await assertMembershipWithin(app.db, actor, { groupId: request.body.id, userIds, join: false }, 'id');
      await deleteGroup(app.db, actor.companyId, request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );

  app.post(
    '/company/group/addUserToGroup',
    {
      config: { permission: 'um_user_group' },
      schema: {
        tags: ['groups'],
        summary: 'Add active members of the company to a group (query-string parameters)',
        querystring: Type.Object({
          groupId: Id,
          userIds: Type.String({ description: 'JSON array text of user ids, e.g. [5,6]' }),
        }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const companyId = callerCompany(request);
      const userIds = parseUserIds(request.query.userIds);
      const group = await groupOf(app.db, companyId, request.query.groupId);
      // all or nothing: one outsider refuses the whole request
      if ((await nonMembers(app.db, companyId, userIds)).length > 0) throw fieldError('userIds', 'notMember');
      const actor = { companyId, userId: caller(request).userId };
      await assertMembershipWithin(app.db, actor, { groupId: group.id, userIds, join: true }, 'userIds');
      await addGroupMembers(app.db, group.id, userIds);
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/company/group/removeUserFromGroup',
    {
      config: { permission: 'um_user_group' },
      schema: {
        tags: ['groups'],
        summary: 'Remove a user from a group',
        body: Type.Object({ groupId: Id, userId: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { groupId, userId } = request.body;
      const actor = { companyId: callerCompany(request), userId: caller(request).userId };
      await assertMembershipWithin(app.db, actor, { groupId, userIds: [userId], join: false }, 'userId');
      if (!(await removeGroupMember(app.db, actor.companyId, groupId, userId))) {
        throw new AppError('notFound', {}, { field: 'userId' });
      }
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/company/group/quitUserGroup',
    {
      config: { permission: 'member' },
      schema: {
        tags: ['groups'],
        summary: 'The caller leaves a group of their current company (query-string groupId)',
        querystring: Type.Object({ groupId: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { groupId } = request.query;
      const actor = { companyId: callerCompany(request), userId: caller(request).userId };
      await assertMembershipWithin(
        app.db,
        actor,
        { groupId, userIds: [actor.userId], join: false },
        'groupId',
      );
      if (!(await removeGroupMember(app.db, actor.companyId, groupId, actor.userId))) {
        throw new AppError('notFound', {}, { field: 'groupId' });
      }
      return ok(null, 'operation', request.lang);
    },
  );
}
