/**
 * Alarm rules (cs_rules) and the alarm log (cs_info): docs/alarms.md. Every route is scoped to
 * the caller's company and to the items the caller can read; changing a rule needs write on its
 * item. The log's live socket is in live-routes.ts.
 */
import { ALARM_CONDITIONS } from '@platform/domain';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Literals, Page, Paging, paging } from '../../platform/schemas';
import { dataCaller } from '../records/schemas';
import logRoutes from './log-routes';
import { addRule, deleteRule, getRule, listRules, type RuleInput, setEnabled, updateRule } from './rules';
import { ALARM_CHANNELS } from './tables';

export const RULES_CODE = 'cs_rules';
const BASE = '/cloudSurveillance/rule';

const Threshold = Type.Number({ minimum: -1e15, maximum: 1e15 });

const LevelSpec = Type.Object({
  level: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)]),
  threshold: Threshold,
  high: Type.Optional(Type.Union([Threshold, Type.Null()])),
});

const RuleBody = {
  name: Type.String({ minLength: 1, maxLength: 50 }),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  itemId: Id,
  fieldKey: Type.String({ minLength: 1, maxLength: 16 }),
  deviceId: Type.Optional(Type.Union([Id, Type.Null()])),
  condition: Literals(ALARM_CONDITIONS),
  levels: Type.Array(LevelSpec, { minItems: 1, maxItems: 3 }),
  durationS: Type.Integer({ minimum: 0, maximum: 86_400 }),
  clear: Type.Optional(
    Type.Union([
      Type.Object({ threshold: Threshold, high: Type.Optional(Type.Union([Threshold, Type.Null()])) }),
      Type.Null(),
    ]),
  ),
  recipients: Type.Object({
    userIds: Type.Array(Id, { maxItems: 100 }),
    groupIds: Type.Array(Id, { maxItems: 50 }),
  }),
  channels: Type.Array(Literals(ALARM_CHANNELS), { minItems: 1, maxItems: 3 }),
};

const RuleView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  enabled: Type.Boolean(),
  itemId: Type.Integer(),
  itemName: Type.String(),
  fieldKey: Type.String(),
  fieldName: Type.String(),
  deviceId: Type.Union([Type.Integer(), Type.Null()]),
  deviceName: Type.Union([Type.String(), Type.Null()]),
  condition: Type.String(),
  levels: Type.Array(LevelSpec),
  durationS: Type.Integer(),
  clear: Type.Union([
    Type.Object({ threshold: Type.Number(), high: Type.Optional(Type.Union([Type.Number(), Type.Null()])) }),
    Type.Null(),
  ]),
  recipients: Type.Object({ userIds: Type.Array(Type.Integer()), groupIds: Type.Array(Type.Integer()) }),
  channels: Type.Array(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

type Body = {
  name: string;
  enabled?: boolean;
  itemId: number;
  fieldKey: string;
  deviceId?: number | null;
  condition: RuleInput['condition'];
  levels: RuleInput['levels'];
  durationS: number;
  clear?: RuleInput['clear'];
  recipients: RuleInput['recipients'];
  channels: RuleInput['channels'];
};

function inputOf(body: Body): RuleInput {
  return {
    ...body,
    enabled: body.enabled ?? true,
    deviceId: body.deviceId ?? null,
    clear: body.clear ?? null,
  };
}

export default async function alarmRoutes(app: App): Promise<void> {
  app.get(
    `${BASE}/list`,
    {
      config: { permission: RULES_CODE },
      schema: {
        tags: ['alarms'],
        summary: 'A page of alarm rules on items the caller can read, newest first',
        querystring: Type.Object({
          ...Paging,
          name: Type.Optional(Type.String({ maxLength: 50 })),
          itemId: Type.Optional(Id),
          enabled: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Envelope(Page(RuleView)) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = paging(q);
      const { list, total } = await listRules(app.db, dataCaller(request), { ...q, ...page });
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.get(
    `${BASE}/get`,
    {
      config: { permission: RULES_CODE },
      schema: {
        tags: ['alarms'],
        summary: 'One alarm rule',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(RuleView) },
      },
    },
    async (request) => ok(await getRule(app.db, dataCaller(request), request.query.id)),
  );

  app.post(
    `${BASE}/add`,
    {
      config: { permission: RULES_CODE },
      schema: {
        tags: ['alarms'],
        summary: 'Make an alarm rule on a numeric field of an item the caller can read',
        body: Type.Object(RuleBody),
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (request) => {
      const id = await addRule(app.db, dataCaller(request), inputOf(request.body));
      app.alarms.rules.invalidate();
      return ok({ id }, 'operation', request.lang);
    },
  );

  app.post(
    `${BASE}/update`,
    {
      config: { permission: RULES_CODE },
      schema: {
        tags: ['alarms'],
        summary: 'Change an alarm rule (write on its item); its open alarm follows the new levels',
        body: Type.Object({ id: Id, ...RuleBody }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { id, ...body } = request.body;
      const input = inputOf(body);
      await updateRule(app.db, dataCaller(request), id, input);
      if (!input.enabled) await app.alarms.retireRule(dataCaller(request).companyId, id);
      app.alarms.rules.invalidate();
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    `${BASE}/enable`,
    {
      config: { permission: RULES_CODE },
      schema: {
        tags: ['alarms'],
        summary: 'Turn an alarm rule on or off; off clears its open alarm',
        body: Type.Object({ id: Id, enabled: Type.Boolean() }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      await setEnabled(app.db, who, request.body.id, request.body.enabled);
      if (!request.body.enabled) await app.alarms.retireRule(who.companyId, request.body.id);
      app.alarms.rules.invalidate();
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    `${BASE}/delete`,
    {
      config: { permission: RULES_CODE },
      schema: {
        tags: ['alarms'],
        summary: 'Delete an alarm rule; its open alarm is cleared, the log keeps its alarms',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      await deleteRule(app.db, who, request.body.id, () =>
        app.alarms.retireRule(who.companyId, request.body.id),
      );
      app.alarms.rules.invalidate();
      return ok(null, 'deleted', request.lang);
    },
  );

  await logRoutes(app);
}
