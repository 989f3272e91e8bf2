/** Request and response schemas of the meter routes (docs/energy.md). */
import { SAMPLING_IDS, TOU_PERIODS } from '@platform/domain';
import { Type } from 'typebox';
import { Id, Literals } from '../../platform/schemas';
import { METER_POINTS } from './service';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const PointsSchema = Type.Object(
  Object.fromEntries(METER_POINTS.map((p) => [p, Type.Optional(Type.String({ maxLength: 25 }))])),
  { additionalProperties: false, description: 'meter point → field key or field name of the item' },
);

const Side = Type.Number({ description: 'a transformer side, > 0' });

export const MeterBody = Type.Object({
  name: Type.String({ maxLength: 200 }),
  type: Type.Union([Type.Literal(101), Type.Literal(100)], { description: '101 standard, 100 virtual' }),
  code: Type.Optional(
    Nullable(Type.String({ maxLength: 100, description: 'how formulas name it; default the name' })),
  ),
  itemId: Type.Optional(Nullable(Id)),
  points: Type.Optional(PointsSchema),
  ctPrimary: Type.Optional(Side),
  ctSecondary: Type.Optional(Side),
  ptPrimary: Type.Optional(Side),
  ptSecondary: Type.Optional(Side),
  registerDigits: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, maximum: 12, description: 'integer digits of the register' })),
  ),
  samplingId: Type.Optional(
    Nullable(
      Type.Union(
        SAMPLING_IDS.map((id) => Type.Literal(id)),
        { description: '1, 5, 10, 15 min' },
      ),
    ),
  ),
  formula: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  preset: Type.Optional(
    Nullable(
      Type.Object({
        kind: Type.Union([Type.Literal('sum'), Type.Literal('remainder')]),
        meterId: Id,
      }),
    ),
  ),
  parentMeterId: Type.Optional(Nullable(Id)),
});

const SidesSchema = Type.Object({ primary: Type.Number(), secondary: Type.Number(), ratio: Type.Number() });

export const MeterViewSchema = Type.Object({
  id: Type.Integer({ description: 'cabin node id' }),
  type: Type.Integer(),
  kind: Type.String(),
  name: Type.String(),
  code: Type.String(),
  parentId: Nullable(Type.Integer()),
  level: Type.Integer(),
  itemId: Nullable(Type.Integer()),
  itemName: Nullable(Type.String()),
  points: Type.Record(Type.String(), Type.String()),
  ct: SidesSchema,
  pt: SidesSchema,
  multiplier: Type.Number(),
  registerDigits: Nullable(Type.Integer()),
  samplingId: Nullable(Type.Integer()),
  formula: Nullable(Type.String()),
  refs: Type.Array(Type.String()),
  parentMeterId: Nullable(Type.Integer()),
  children: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), code: Type.String() })),
  updatedAt: Type.String(),
});

const TouEnergySchema = Type.Object(Object.fromEntries(TOU_PERIODS.map((p) => [p, Type.Number()])));
const ReadingSchema = Nullable(Type.Object({ at: Type.String(), value: Type.Number() }));

export const IssueSchema = Type.Object({
  meter: Type.String(),
  reason: Type.String(),
  at: Nullable(Type.String()),
  detail: Type.Optional(Type.String()),
});

export const PeriodSchema = Type.Object({
  label: Type.String(),
  from: Type.String(),
  to: Type.String(),
  opening: ReadingSchema,
  closing: ReadingSchema,
  kWh: Nullable(Type.Number()),
  tou: Nullable(TouEnergySchema),
  cents: Nullable(TouEnergySchema),
  totalCents: Nullable(Type.Integer()),
});

export const EnergySchema = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  type: Type.Integer(),
  timeZone: Type.String(),
  periods: Type.Array(PeriodSchema),
  total: Type.Object({
    kWh: Nullable(Type.Number()),
    tou: Nullable(TouEnergySchema),
    totalCents: Nullable(Type.Integer()),
  }),
  issues: Type.Array(IssueSchema),
});

export const ReportSchema = Type.Object({
  meter: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    code: Type.String(),
    type: Type.Integer(),
    ct: Type.Number(),
    pt: Type.Number(),
    multiplier: Type.Number(),
    formula: Nullable(Type.String()),
  }),
  year: Type.Integer(),
  month: Type.Integer(),
  timeZone: Type.String(),
  from: Type.String(),
  to: Type.String(),
  opening: ReadingSchema,
  closing: ReadingSchema,
  kWh: Nullable(Type.Number()),
  tou: Nullable(
    Type.Array(
      Type.Object({
        period: Type.String(),
        kWh: Type.Number(),
        price: Nullable(Type.Integer()),
        cents: Nullable(Type.Integer()),
      }),
    ),
  ),
  totalCents: Nullable(Type.Integer()),
  events: Type.Array(
    Type.Object({
      kind: Type.String(),
      at: Type.String(),
      details: Type.Record(Type.String(), Type.Unknown()),
    }),
  ),
  balance: Nullable(
    Type.Object({
      children: Type.Array(
        Type.Object({
          id: Type.Integer(),
          name: Type.String(),
          code: Type.String(),
          kWh: Nullable(Type.Number()),
        }),
      ),
      childrenKWh: Type.Number(),
      difference: Nullable(Type.Number()),
      percent: Nullable(Type.Number()),
    }),
  ),
  issues: Type.Array(IssueSchema),
});

export const ReportQuery = Type.Object({
  meterId: Id,
  year: Type.Integer({ minimum: 2000, maximum: 2100 }),
  month: Type.Integer({ minimum: 1, maximum: 12 }),
});

export const LogRowSchema = Type.Object({
  id: Type.Integer(),
  meterId: Type.Integer({ description: 'the meter’s cabin node id' }),
  meterName: Type.String(),
  meterCode: Type.String(),
  companyId: Type.Integer(),
  kind: Literals(['replacement', 'rollover']),
  at: Type.String(),
  details: Type.Record(Type.String(), Type.Unknown()),
  note: Type.String(),
  createdBy: Nullable(Type.String()),
  createdAt: Type.String(),
});

const HourRangeSchema = Type.Object({
  from: Type.Number({ minimum: 0, maximum: 24 }),
  to: Type.Number({ minimum: 0, maximum: 24 }),
});

export const ScheduleSchema = Type.Object(
  Object.fromEntries(
    TOU_PERIODS.map((p) => [p, Type.Optional(Type.Array(HourRangeSchema, { maxItems: 24 }))]),
  ),
  { additionalProperties: false },
);

export const PricesSchema = Type.Object(
  Object.fromEntries(
    TOU_PERIODS.map((p) => [
      p,
      Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, description: 'cents per kWh' })),
    ]),
  ),
  { additionalProperties: false },
);

export const TouViewSchema = Type.Object({
  schedule: ScheduleSchema,
  prices: PricesSchema,
  largeLoadGap: Type.Boolean(),
  warnings: Type.Array(
    Type.Object({
      key: Type.String(),
      ratio: Type.Optional(Type.Number()),
      min: Type.Optional(Type.Number()),
      period: Type.Optional(Type.String()),
      cheaper: Type.Optional(Type.String()),
    }),
  ),
  updatedAt: Nullable(Type.String()),
});
