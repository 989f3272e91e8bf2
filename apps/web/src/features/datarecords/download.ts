/**
 * Export download: the file comes as a blob (not an envelope). A failed export still answers
 * an envelope, which then arrives as a JSON blob: it is read back and shown like any error.
 */
import { ApiError, http } from '../../app/http/client';
import { notifier } from '../../app/http/notifier';
import type { RecordFilter } from './api';

function fileNameOf(disposition: string | undefined, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ?? fallback;
}

export async function exportRecords(params: {
  itemId: number;
  itemName: string;
  format: 'csv' | 'xlsx';
  from?: string;
  to?: string;
  filters?: RecordFilter[];
}): Promise<void> {
  const { itemName, ...query } = params;
  const response = await http.get<Blob>('/smartdata/record/export', {
    params: { ...query, filters: query.filters?.length ? query.filters : undefined },
    responseType: 'blob',
    timeout: 120_000,
  });
  const blob = response.data;
  if (blob.type.includes('application/json')) {
    const body = JSON.parse(await blob.text()) as { code: number; message: string };
    notifier().error({ title: body.message });
    throw new ApiError(body.code, body.message);
  }
  const name = fileNameOf(
    response.headers['content-disposition'] as string | undefined,
    `${itemName}.${params.format}`,
  );
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
