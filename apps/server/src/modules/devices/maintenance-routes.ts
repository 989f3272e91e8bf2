/**
 * Device maintenance (code dm_maintenance): records and plans of the devices the caller can
 * read (maintenance.ts).
 */
import { MAINTENANCE_KINDS, PLAN_INTERVAL_MAX_DAYS } from '@platform/domain';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Literals, Page, Paging, paging } from '../../platform/schemas';
import { dataCaller } from '../cabin/routes';
import {
  COST_MAX,
  createPlan,
  createRecord,
  deletePlan,
  deleteRecord,
  listPlans,
  listRecords,
  maintenanceDevices,
  planDone,
  updatePlan,
  updateRecord,
} from './maintenance';

const PERMISSION = 'dm_maintenance';
const Kind = Literals(MAINTENANCE_KINDS);
const Day = Type.String({ maxLength: 10, description: 'YYYY-MM-DD' });
const Cost = Type.Union([Type.Number({ minimum: 0, maximum: COST_MAX }), Type.Null()]);
const Interval = Type.Integer({ minimum: 1, maximum: PLAN_INTERVAL_MAX_DAYS });
const Person = Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]);

const RecordRow = Type.Object({
  id: Type.Integer(),
  deviceId: Type.Integer(),
  serialNumber: Type.String(),
  deviceName: Type.String(),
  date: Type.String(),
  kind: Type.String(),
  description: Type.String(),
  performedBy: Type.String(),
  cost: Type.Union([Type.Number(), Type.Null()]),
  planId: Type.Union([Type.Integer(), Type.Null()]),
  createdBy: Person,
  createdAt: Type.String(),
});

const PlanRow = Type.Object({
  id: Type.Integer(),
  deviceId: Type.Integer(),
  serialNumber: Type.String(),
  deviceName: Type.String(),
  title: Type.String(),
  intervalDays: Type.Integer(),
  nextDue: Type.String(),
  overdue: Type.Boolean(),
  daysLeft: Type.Integer({ description: 'days until due in the company’s time zone; negative when overdue' }),
  assignee: Person,
  lastDoneOn: Type.Union([Type.String(), Type.Null()]),
  note: Type.String(),
});

const RecordFields = {
  date: Type.Optional(Day),
  kind: Type.Optional(Kind),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  performedBy: Type.Optional(Type.String({ maxLength: 200 })),
  cost: Type.Optional(Cost),
};

const PlanFields = {
  title: Type.Optional(Type.String({ maxLength: 200 })),
  intervalDays: Type.Optional(Interval),
  nextDue: Type.Optional(Day),
  assigneeId: Type.Optional(Type.Union([Id, Type.Null()])),
  note: Type.Optional(Type.String({ maxLength: 1000 })),
};

export default async function maintenanceRoutes(app: App): Promise<void> {
  const route = { config: { permission: PERMISSION } } as const;
  const tags = ['maintenance'];

  app.get(
    '/devicemanagement/maintenance/devices',
    {
      ...route,
      schema: {
        tags,
        summary: 'The devices the caller can read, for the maintenance pickers',
        response: {
          200: Envelope(
            Type.Array(Type.Object({ id: Type.Integer(), serialNumber: Type.String(), name: Type.String() })),
          ),
        },
      },
    },
    async (request) => ok(await maintenanceDevices(app, dataCaller(request))),
  );

  app.get(
    '/devicemanagement/maintenance/records',
    {
      ...route,
      schema: {
        tags,
        summary: 'Maintenance records of the readable devices, newest first',
        querystring: Type.Object({
          ...Paging,
          deviceId: Type.Optional(Id),
          kind: Type.Optional(Kind),
          from: Type.Optional(Day),
          to: Type.Optional(Day),
          keyword: Type.Optional(Type.String({ maxLength: 50 })),
        }),
        response: { 200: Envelope(Page(RecordRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const { list, total } = await listRecords(app, dataCaller(request), { ...request.query, ...page });
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.post(
    '/devicemanagement/maintenance/records/create',
    {
      ...route,
      schema: {
        tags,
        summary: 'Record maintenance done on a device (read-write level)',
        body: Type.Object({ deviceId: Id, ...RecordFields }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (request) =>
      ok(await createRecord(app, dataCaller(request), request.body), 'operation', request.lang),
  );

  app.post(
    '/devicemanagement/maintenance/records/update',
    {
      ...route,
      schema: {
        tags,
        summary: 'Change a maintenance record (read-write level on its device)',
        body: Type.Object({ id: Id, ...RecordFields }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await updateRecord(app, dataCaller(request), request.body);
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/devicemanagement/maintenance/records/delete',
    {
      ...route,
      schema: {
        tags,
        summary: 'Delete a maintenance record (read-write level on its device)',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await deleteRecord(app, dataCaller(request), request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );

  app.get(
    '/devicemanagement/maintenance/plans',
    {
      ...route,
      schema: {
        tags,
        summary: 'Maintenance plans of the readable devices: overdue first, then by next due date',
        querystring: Type.Object({
          ...Paging,
          deviceId: Type.Optional(Id),
          overdue: Type.Optional(Type.Boolean()),
          assigneeId: Type.Optional(Id),
        }),
        response: { 200: Envelope(Page(PlanRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const { list, total } = await listPlans(app, dataCaller(request), { ...request.query, ...page });
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.post(
    '/devicemanagement/maintenance/plans/create',
    {
      ...route,
      schema: {
        tags,
        summary: 'Plan maintenance every N days (read-write level on the device)',
        body: Type.Object({ deviceId: Id, ...PlanFields }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (request) =>
      ok(await createPlan(app, dataCaller(request), request.body), 'operation', request.lang),
  );

  app.post(
    '/devicemanagement/maintenance/plans/update',
    {
      ...route,
      schema: {
        tags,
        summary: 'Change a maintenance plan (read-write level on its device)',
        body: Type.Object({ id: Id, ...PlanFields }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await updatePlan(app, dataCaller(request), request.body);
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/devicemanagement/maintenance/plans/delete',
    {
      ...route,
      schema: {
        tags,
        summary: 'Delete a maintenance plan (read-write level on its device)',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await deletePlan(app, dataCaller(request), request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );

  app.post(
    '/devicemanagement/maintenance/plans/done',
    {
      ...route,
      schema: {
        tags,
        summary: "The plan's work was done: a record of it, and the next due date moves on by the interval",
        body: Type.Object({
          id: Id,
          doneOn: Type.Optional(Day),
          kind: Type.Optional(Kind),
          description: Type.Optional(Type.String({ maxLength: 2000 })),
          performedBy: Type.Optional(Type.String({ maxLength: 200 })),
          cost: Type.Optional(Cost),
        }),
        response: { 200: Envelope(Type.Object({ nextDue: Type.String(), recordId: Type.Integer() })) },
      },
    },
    async (request) => ok(await planDone(app, dataCaller(request), request.body), 'operation', request.lang),
  );
}
