/** Calls of report templates (docs/api-data-engine.md, "Report templates"); reports are named by their cabin node id. */
import type { DataPermission, ReportTemplate, ResolvedReport } from '@platform/domain';
import { useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import { downloadFile } from '../../app/http/download';

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
  /** the company's IANA time zone: the report's days begin at its midnight */
  timeZone?: string;
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

/** Downloads the filled report; a refused export answers an envelope, shown like any error. */
export async function downloadReport(id: number, name: string, format: 'xlsx' | 'pdf'): Promise<void> {
  await downloadFile('/smartdata/report/export', { id, format }, `${name}.${format}`);
}
