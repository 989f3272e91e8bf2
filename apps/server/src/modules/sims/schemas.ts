/** Schemas of the SIM card routes, company side (cd_sim) and system maintenance (system_sim). */
import { SIM_NOTES_MAX, SIM_PLAN_MB_MAX } from '@platform/domain';
import { type TSchema, Type } from 'typebox';
import { Id, Paging } from '../../platform/schemas';

export const COMPANY_PERMISSION = 'cd_sim';
export const SYSTEM_PERMISSION = 'system_sim';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const SORT_FIELDS = [
  'iccid',
  'carrier',
  'state',
  'planMb',
  'usedMb',
  'usage',
  'usageAsOf',
  'holder',
  'createdAt',
  'company',
] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** Search and filters of both lists (and of their exports). */
export const ListFilters = {
  keyword: Type.Optional(
    Type.String({ maxLength: 40, description: 'part of the ICCID, MSISDN or holding gateway serial number' }),
  ),
  carrier: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
  state: Type.Optional(Type.Integer({ minimum: 0, maximum: 6, description: '4 is read as 0 (none)' })),
  moved: Type.Optional(Type.Boolean({ description: 'only cards flagged as moved (true) or not (false)' })),
  usageMin: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 100_000,
      description: 'only cards that used at least this % of their plan',
    }),
  ),
};

export const SystemFilters = {
  companyId: Type.Optional(Id),
  stock: Type.Optional(Type.Boolean({ description: "true: only the platform's stock (no company)" })),
};

export const ListQuery = Type.Object({
  ...ListFilters,
  ...Paging,
  sortField: Type.Optional(
    Type.Union(SORT_FIELDS.filter((f) => f !== 'company').map((f) => Type.Literal(f))),
  ),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});

export const SystemListQuery = Type.Object({
  ...ListFilters,
  ...SystemFilters,
  ...Paging,
  sortField: Type.Optional(Type.Union(SORT_FIELDS.map((f) => Type.Literal(f)))),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});

export const Format = Type.Union([Type.Literal('csv'), Type.Literal('xlsx')]);

const SimRowProps = {
  id: Type.Integer(),
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  carrier: Type.Integer(),
  state: Type.Integer(),
  planMb: Nullable(Type.Number()),
  usedMb: Nullable(Type.Number()),
  usagePercent: Nullable(Type.Number()),
  usageAsOf: Nullable(Type.String()),
  notes: Type.String(),
  holder: Nullable(
    Type.Object({
      serialNumber: Type.String(),
      since: Nullable(Type.String()),
      seenAt: Nullable(Type.String()),
    }),
  ),
  moved: Nullable(Type.Object({ from: Type.String(), to: Type.String(), at: Type.String() })),
  syncedAt: Nullable(Type.String()),
  syncError: Nullable(Type.String({ description: 'unknownToCarrier | carrierFailed' })),
  company: Type.Optional(Nullable(Type.Object({ id: Type.Integer(), name: Type.String() }))),
};

export const SimRowSchema = Type.Object(SimRowProps);

export const SimDetailSchema = Type.Object({
  ...SimRowProps,
  createdAt: Type.String(),
  assignedAt: Nullable(Type.String()),
  usage: Type.Array(Type.Object({ asOf: Type.String(), usedMb: Type.Number(), state: Type.Integer() })),
  sightings: Type.Array(
    Type.Object({ serialNumber: Type.String(), firstSeen: Type.String(), lastSeen: Type.String() }),
  ),
  lastMove: Nullable(
    Type.Object({
      from: Type.String(),
      to: Type.String(),
      at: Type.String(),
      acknowledgedAt: Nullable(Type.String()),
      acknowledgedBy: Nullable(Type.String()),
    }),
  ),
});

export const DetailQuery = Type.Object({
  id: Id,
  days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 400, default: 31, description: 'usage readings of the last days' }),
  ),
});

export const UpdateBody = Type.Object({
  id: Id,
  planMb: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: SIM_PLAN_MB_MAX }))),
  notes: Type.Optional(Type.String({ maxLength: SIM_NOTES_MAX })),
});

export const ImportResultSchema = Type.Object({
  total: Type.Integer({ description: 'data rows in the file (header, note row and blank rows not counted)' }),
  inserted: Type.Integer(),
  updated: Type.Integer(),
  rejected: Type.Array(
    Type.Object({
      row: Type.Integer({ description: 'row number in the file, header = 1' }),
      column: Type.String({ description: 'iccid, carrier, state, planMb, msisdn or notes' }),
      message: Type.String(),
    }),
  ),
});

export const FileResponse = Type.Unsafe<unknown>({
  type: 'string',
  format: 'binary',
  description: 'the file',
});
