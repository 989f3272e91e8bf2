import { useState } from 'react';
import { usePaging } from '../../shared/paging';

/**
 * A paged list's filters: each change goes back to page 1; `filtered` when any filter is set
 * (an empty table then says nothing matches, not that there is nothing).
 */
export function useFilters<F extends object>(pageSize?: number) {
  const { paging, pagination, reset, stepBackIfEmpty, onSort } = usePaging(pageSize);
  const [filters, setFilters] = useState<F>({} as F);
  const filter = (change: Partial<F>) => {
    setFilters((f) => ({ ...f, ...change }));
    reset();
  };
  const filtered = Object.values(filters).some((v) => v !== undefined && v !== '');
  return { paging, pagination, stepBackIfEmpty, onSort, filters, filter, filtered };
}
