/** Schemas both gas route files use (routes.ts: the recipes and calculation; cylinder-routes.ts: cylinders). */
import { Type } from 'typebox';
import { Envelope, Id, Paging } from '../../platform/schemas';

export const Formula = Type.String({ maxLength: 20 });
export const Amount = Type.Number();
/** more entries than any real mixture or purity table, fewer than a careless paste */
export const MAX_ENTRIES = 50;

/** The answer of a save: the row's id. */
export const Saved = Envelope(Type.Object({ id: Type.Integer() }));

/** A list's paging and search. */
export const ListQuery = Type.Object({ ...Paging, keyword: Type.Optional(Type.String({ maxLength: 50 })) });

/** The weighed parent gases of a cylinder: each pure gas with its mass and the weighing's u. */
export const Parents = Type.Array(
  Type.Object({ pureGasId: Id, massG: Amount, uMassG: Type.Optional(Amount) }),
  { maxItems: MAX_ENTRIES },
);
