/** Schema helpers shared by every module's routes (TypeBox, also feeding the OpenAPI docs). */
import { type TSchema, Type } from 'typebox';

/** The response envelope of seed point 7 around a data schema. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ code: Type.Integer(), message: Type.String(), data });
}

export const EmptyEnvelope = Envelope(Type.Null());

/** One of these strings (a union of literals that keeps its type). */
export function Literals<T extends string>(
  values: readonly T[],
  options: { description?: string } = {},
): Type.TEnum<T[]> {
  return Type.Enum([...values], options) as Type.TEnum<T[]>;
}

/** The largest value of a PostgreSQL `integer` column (every id is one). */
export const INT32_MAX = 2 ** 31 - 1;

/** A row id: a bad one is refused naming its field, and never reaches the database. */
export const Id = Type.Integer({ minimum: 1, maximum: INT32_MAX });

export const Phone = Type.String({ minLength: 1, maxLength: 20 });

/** Pages beyond this are refused (the row offset must stay a sane number). */
export const PAGE_NUM_MAX = 100_000;

/** Paging query of list routes: pageNum from 1 to PAGE_NUM_MAX, pageSize up to 100. */
export const Paging = {
  pageNum: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_NUM_MAX, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
};

export function Page<T extends TSchema>(row: T) {
  return Type.Object({
    list: Type.Array(row),
    total: Type.Integer(),
    pageNum: Type.Integer(),
    pageSize: Type.Integer(),
  });
}

export function paging(query: { pageNum?: number; pageSize?: number }): {
  limit: number;
  offset: number;
  pageNum: number;
  pageSize: number;
} {
  const pageNum = query.pageNum ?? 1;
  const pageSize = query.pageSize ?? 20;
  return { limit: pageSize, offset: (pageNum - 1) * pageSize, pageNum, pageSize };
}
