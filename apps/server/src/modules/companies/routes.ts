import { checkName, isIanaTimeZone } from '@platform/domain';
import { Type } from 'typebox';
import { caller, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError, assertField, fieldError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id } from '../../platform/schemas';
import invitationRoutes from './invitation-routes';
import logoRoutes from './logo-routes';
import {
  createCompany,
  findLiveCompany,
  holdsAdminRole,
  isActiveMember,
  isCompanyNameTaken,
  listActiveCompanies,
  logoUrlOf,
  setCurrentCompany,
  softDeleteCompany,
  updateCompanyNames,
} from './service';

const Company = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  displayName: Type.String(),
  cfg: Type.String({ description: 'JSON text; holds logoThumbnailUri' }),
  logoUrl: Type.Union([Type.String(), Type.Null()], { description: 'null: show the default logo' }),
  serviceExpiresAt: Type.Union([Type.String(), Type.Null()]),
  isPlatform: Type.Boolean(),
  timeZone: Type.String({ description: 'IANA zone name every time of the company reads in' }),
});

const CompanyListRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  displayName: Type.String(),
  logoUrl: Type.Union([Type.String(), Type.Null()]),
  current: Type.Boolean(),
});

/** A company name or display name: the spec's name rules, checked on the trimmed text. */
function checkedName(field: string, value: string): string {
  const trimmed = value.trim();
  assertField(field, checkName(trimmed));
  return trimmed;
}

export default async function companyRoutes(app: App): Promise<void> {
  app.get(
    '/company/getCompany',
    {
      config: { permission: 'member' },
      schema: { tags: ['companies'], summary: 'The current company', response: { 200: Envelope(Company) } },
    },
    async (request) => {
      const company = await findLiveCompany(app.db, callerCompany(request));
      if (!company) throw new AppError('noCompany');
      return ok({
        id: company.id,
        name: company.name,
        displayName: company.displayName,
        cfg: company.cfg,
        logoUrl: logoUrlOf(company.cfg),
        serviceExpiresAt: company.serviceExpiresAt?.toISOString() ?? null,
        isPlatform: company.isPlatform,
        timeZone: company.timeZone,
      });
    },
  );

  app.get(
    '/company/getCompanyList',
    {
      config: { permission: 'login' },
      schema: {
        tags: ['companies'],
        summary: 'Companies the caller is an active member of',
        response: { 200: Envelope(Type.Array(CompanyListRow)) },
      },
    },
    async (request) => {
      const auth = caller(request);
      const list = await listActiveCompanies(app.db, auth.userId);
      return ok(list.map((c) => ({ ...c, current: c.id === auth.companyId })));
    },
  );

  app.post(
    '/company/addCompany',
    {
      config: { permission: 'login' },
      schema: {
        tags: ['companies'],
        summary: 'Create a company owned by the caller (who becomes its administrator)',
        body: Type.Object({ name: Type.String() }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (request) => {
      const auth = caller(request);
      const name = checkedName('name', request.body.name);
      if (await isCompanyNameTaken(app.db, name))
        throw new AppError('companyNameTaken', {}, { field: 'name' });
      const { company } = await createCompany(app.db, { name, ownerId: auth.userId });
      // createCompany switches only when the column is empty; a stale current company counts as none
      if (auth.companyId == null) await setCurrentCompany(app.db, auth.userId, company.id);
      return ok({ id: company.id }, 'operation', request.lang);
    },
  );

  app.post(
    '/company/updateCompany',
    {
      config: { permission: 'sys_company_info' },
      schema: {
        tags: ['companies'],
        summary: 'Rename the current company or change its time zone',
        body: Type.Object({
          displayName: Type.Optional(Type.String()),
          name: Type.Optional(Type.String()),
          timeZone: Type.Optional(Type.String({ description: 'IANA zone name, e.g. Asia/Shanghai' })),
        }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const companyId = callerCompany(request);
      const { body } = request;
      const name = body.name == null ? undefined : checkedName('name', body.name);
      const displayName = body.displayName == null ? undefined : checkedName('displayName', body.displayName);
      const timeZone = body.timeZone == null ? undefined : body.timeZone.trim();
      if (timeZone != null && !isIanaTimeZone(timeZone)) throw fieldError('timeZone', 'timeZoneInvalid');
      if (name != null && (await isCompanyNameTaken(app.db, name, companyId))) {
        throw new AppError('companyNameTaken', {}, { field: 'name' });
      }
      await updateCompanyNames(app.db, companyId, { name, displayName, timeZone });
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/company/deleteCompany',
    {
      config: { permission: 'sys_company_info' },
      schema: {
        tags: ['companies'],
        summary: 'Delete the current company (administrators only; confirmName must equal its name)',
        body: Type.Object({ id: Id, confirmName: Type.String() }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const auth = caller(request);
      const companyId = callerCompany(request);
      const { id, confirmName } = request.body;
      // only the current company: a company id from the client is never trusted beyond that
      if (id !== companyId) throw new AppError('notFound', {}, { field: 'id' });
      const company = await findLiveCompany(app.db, companyId);
      if (!company) throw new AppError('notFound', {}, { field: 'id' });
      if (!(await holdsAdminRole(app.db, companyId, auth.userId))) throw new AppError('forbidden');
      // the platform operator's company carries the system codes: deleting it would lock everyone out
      if (company.isPlatform) throw new AppError('forbidden');
      if (confirmName !== company.name) throw fieldError('confirmName', 'companyConfirmMismatch');
      await softDeleteCompany(app.db, companyId);
      return ok(null, 'deleted', request.lang);
    },
  );

  app.post(
    '/company/switchCompany',
    {
      config: { permission: 'login' },
      schema: {
        tags: ['companies'],
        summary: "Make another of the caller's companies the current one",
        body: Type.Object({ companyId: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const auth = caller(request);
      const { companyId } = request.body;
      if (!(await isActiveMember(app.db, companyId, auth.userId))) throw fieldError('companyId', 'notMember');
      await setCurrentCompany(app.db, auth.userId, companyId);
      return ok(null, 'operation', request.lang);
    },
  );

  await invitationRoutes(app);
  await logoRoutes(app);
}
