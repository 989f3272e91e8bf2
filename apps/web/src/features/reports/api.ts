/** Calls of report templates (docs/api-data-engine.md, "Report templates"); reports are named by their cabin node id. */
import type { DataPermission, ReportTemplate, ResolvedReport } from '@platform/domain';
import { useQuery } from '@tanstack/react-query';
import { ApiError, get, http, request } from '../../app/http/client';
import { notifier } from '../../app/http/notifier';

export interface ReportView {
  id: number;
  name: string;
  level: DataPermission;
  template: ReportTemplate;
  updatedAt: string;
}

export interface ReportPreview extends ResolvedReport {
  id: number;
  name: string;
  generatedAt: string;
}

export const reportKeys = {
  all: ['reports'] as const,
  report: (id: number) => ['reports', 'report', id] as const,
  preview: (id: number) => ['reports', 'preview', id] as const,
};

const validId = (id: number) => Number.isInteger(id) && id > 0;

export function useReport(id: number) {
  return useQuery({
    queryKey: reportKeys.report(id),
    queryFn: () => get<ReportView>('/smartdata/report/get', { id }),
    enabled: validId(id),
    retry: false,
  });
}

export function useReportPreview(id: number) {
  return useQuery({
    queryKey: reportKeys.preview(id),
    queryFn: () => get<ReportPreview>('/smartdata/report/preview', { id }),
    enabled: validId(id),
    retry: false,
  });
}

export const reportApi = {
  save: (id: number, template: ReportTemplate) =>
    request<null>({ method: 'POST', url: '/smartdata/report/save', data: { id, template } }),
};

function fileNameOf(disposition: string | undefined, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ?? fallback;
}

/** Downloads the filled report; a refused export answers an envelope, shown like any error. */
export async function downloadReport(id: number, name: string, format: 'xlsx' | 'pdf'): Promise<void> {
  const response = await http.get<Blob>('/smartdata/report/export', {
    params: { id, format },
    responseType: 'blob',
    timeout: 120_000,
  });
  const blob = response.data;
  if (blob.type.includes('application/json')) {
    const body = JSON.parse(await blob.text()) as { code: number; message: string };
    notifier().error({ title: body.message });
    throw new ApiError(body.code, body.message);
  }
  const fileName = fileNameOf(
    response.headers['content-disposition'] as string | undefined,
    `${name}.${format}`,
  );
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
