/**
 * Sorting of paged lists (docs/api-foundation.md): `sortField` names one of the list's sortable
 * columns (anything else is refused by the schema, 40000 on the field) and `sortOrder` is asc
 * or desc (desc when left out). The asked column comes first; the list's own order follows and
 * ends on a unique column, so equal values never shuffle between pages.
 */
import { asc, desc, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { Type } from 'typebox';

export type SortOrder = 'asc' | 'desc';

export interface SortQuery {
  sortField?: string;
  sortOrder?: SortOrder;
}

/** The querystring fields of a list sortable by these columns' names. */
export function Sorting(fields: readonly [string, ...string[]]) {
  return {
    sortField: Type.Optional(
      Type.Union(
        fields.map((f) => Type.Literal(f)),
        { description: `sort by: ${fields.join(', ')}` },
      ),
    ),
    sortOrder: Type.Optional(
      Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'asc or desc (default)' }),
    ),
  };
}

/** The ORDER BY: the asked column (text compared as stored), then the list's own order. */
export function sortedBy(
  columns: Readonly<Record<string, AnyPgColumn | SQL>>,
  query: SortQuery,
  own: SQL[],
): SQL[] {
  const column = query.sortField ? columns[query.sortField] : undefined;
  if (!column) return own;
  return [query.sortOrder === 'asc' ? asc(column) : desc(column), ...own];
}
