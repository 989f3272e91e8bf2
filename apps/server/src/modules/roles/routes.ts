import { checkName } from '@platform/domain';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { caller, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { assertField, fieldError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id } from '../../platform/schemas';
import {
  addRole,
  authorityIn,
  deleteRole,
  grantableCodes,
  isPlatformCompany,
  listRoles,
  updateRole,
} from './service';

const RoleRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  roleType: Type.Integer({ description: '1 administrator, 2 ordinary user' }),
  menuCodes: Type.Array(Type.String()),
  builtin: Type.Boolean(),
  userCount: Type.Integer({ description: 'active members holding the role' }),
});

const RoleType = Type.Union([Type.Literal(1), Type.Literal(2)], {
  description: '1 administrator, 2 ordinary user',
});
const Description = Type.Union([Type.String({ maxLength: 200 }), Type.Null()]);
const MenuCodes = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 200 });

/** The caller's authority in their current company (what they may hand out). */
function callerAuthority(app: App, request: FastifyRequest) {
  return authorityIn(app.db, callerCompany(request), caller(request).userId);
}

function checkedName(value: string): string {
  const name = value.trim();
  assertField('name', checkName(name));
  return name;
}

/** The codes asked for, without repeats; every one must be grantable in the company. */
function checkedCodes(codes: readonly string[], isPlatform: boolean): string[] {
  const grantable = new Set<string>(grantableCodes(isPlatform));
  if (!codes.every((code) => grantable.has(code))) throw fieldError('menuCodes');
  return [...new Set(codes)];
}

export default async function rolesRoutes(app: App): Promise<void> {
  app.get(
    '/role/getRoleList',
    {
      config: { permission: 'um_role' },
      schema: {
        tags: ['roles'],
        summary: "The current company's roles with how many members hold each",
        response: { 200: Envelope(Type.Array(RoleRow)) },
      },
    },
    async (request) => ok(await listRoles(app.db, callerCompany(request))),
  );

  app.get(
    '/role/getMenuCodes',
    {
      config: { permission: 'um_role' },
      schema: {
        tags: ['roles'],
        summary:
          'The menu codes the caller may grant here: those of the company (system codes only in the platform company) that the caller holds',
        response: { 200: Envelope(Type.Array(Type.String())) },
      },
    },
    async (request) => {
      const held = caller(request).menuCodes;
      const grantable = grantableCodes(await isPlatformCompany(app.db, callerCompany(request)));
      return ok(grantable.filter((code) => held.has(code)));
    },
  );

  app.post(
    '/role/addRole',
    {
      config: { permission: 'um_role' },
      schema: {
        tags: ['roles'],
        summary:
          'Create a role (codes grantable here and held by the caller; the administrator type only by an administrator)',
        body: Type.Object({
          name: Type.String({ maxLength: 200 }),
          description: Type.Optional(Description),
          roleType: RoleType,
          menuCodes: MenuCodes,
        }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (request) => {
      const companyId = callerCompany(request);
      const { body } = request;
      const name = checkedName(body.name);
      const menuCodes = checkedCodes(body.menuCodes, await isPlatformCompany(app.db, companyId));
      const id = await addRole(
        app.db,
        companyId,
        { name, description: body.description?.trim() || null, roleType: body.roleType, menuCodes },
        await callerAuthority(app, request),
      );
      return ok({ id }, 'operation', request.lang);
    },
  );

  app.post(
    '/role/updateRole',
    {
      config: { permission: 'um_role' },
      schema: {
        tags: ['roles'],
        summary:
          "Change a role within the caller's authority, before and after (the built-in administrator role keeps its codes)",
        body: Type.Object({
          id: Id,
          name: Type.Optional(Type.String({ maxLength: 200 })),
          description: Type.Optional(Description),
          roleType: Type.Optional(RoleType),
          menuCodes: Type.Optional(MenuCodes),
        }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const companyId = callerCompany(request);
      const { body } = request;
      const name = body.name == null ? undefined : checkedName(body.name);
      const menuCodes =
        body.menuCodes == null
          ? undefined
          : checkedCodes(body.menuCodes, await isPlatformCompany(app.db, companyId));
      const description = body.description === undefined ? undefined : body.description?.trim() || null;
      await updateRole(
        app.db,
        companyId,
        body.id,
        { name, description, roleType: body.roleType, menuCodes },
        await callerAuthority(app, request),
      );
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/role/deleteRole',
    {
      config: { permission: 'um_role' },
      schema: {
        tags: ['roles'],
        summary:
          "Delete a role within the caller's authority (refused for built-in roles and while members hold it)",
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await deleteRole(app.db, callerCompany(request), request.body.id, await callerAuthority(app, request));
      return ok(null, 'deleted', request.lang);
    },
  );
}
