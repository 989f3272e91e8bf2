/** Export of an item's records and its import template as CSV or XLSX (a refused download is shown like any error). */
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

/** The item's import template: its header and a row saying what each column takes (the import skips it). */
export async function downloadImportTemplate(params: {
  itemId: number;
  itemName: string;
  format: 'csv' | 'xlsx';
}): Promise<void> {
  await downloadFile(
    '/smartdata/record/template',
    { itemId: params.itemId, format: params.format },
    `${params.itemName}.${params.format}`,
  );
}
