/** Export of an item's records as CSV or XLSX (a refused export is shown like any error). */
import { downloadFile } from '../../app/http/download';
import type { RecordFilter } from './api';

export async function exportRecords(params: {
  itemId: number;
  itemName: string;
  format: 'csv' | 'xlsx';
  from?: string;
  to?: string;
  filters?: RecordFilter[];
}): Promise<void> {
  const { itemName, ...query } = params;
  await downloadFile(
    '/smartdata/record/export',
    { ...query, filters: query.filters?.length ? query.filters : undefined },
    `${itemName}.${params.format}`,
  );
}
