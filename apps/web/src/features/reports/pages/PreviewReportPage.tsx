import {
  ArrowLeftOutlined,
  EditOutlined,
  FileExcelOutlined,
  FilePdfOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import { DATA_PERMISSION, type ResolvedCell } from '@platform/domain';
import { Button, Card, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { downloadReport, useReport, useReportPreview } from '../api';
import { cellCss, type GridCell, GridTable } from '../components/GridTable';
import { ReportState } from '../components/ReportState';
import { reportPaths } from '../paths';
import '../reports.css';
import { formatTime } from '../../../shared/time';
import { ZoneHint } from '../../../shared/ZoneHint';

function resolvedCell(cell: ResolvedCell | undefined, none: string): GridCell {
  if (!cell || cell.kind === 'covered') return { covered: true, content: null };
  const span = { rowSpan: cell.rowSpan, colSpan: cell.colSpan, style: cellCss(cell.style) };
  if (cell.kind !== 'value') return { ...span, content: cell.text };
  if (cell.value === null) return { ...span, content: none, className: 'rp-value rp-none' };
  return { ...span, content: cell.text, className: 'rp-value' };
}

/**
 * /previewReport/:entityId — the report filled with real data now (every bound cell through its
 * acquisition method, for the viewing user: an item they cannot read shows no value), with
 * downloads as XLSX and PDF.
 */
export default function PreviewReportPage() {
  const { t } = useTranslation('reports');
  const navigate = useNavigate();
  const params = useParams();
  const id = Number(params.entityId);
  const preview = useReportPreview(id);
  const report = useReport(id);
  const [busy, setBusy] = useState<'xlsx' | 'pdf' | null>(null);
  // back where the preview was opened from (the template or its editor), else to the template
  const back = (report: { id: number; name: string }) => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate(reportPaths.view(report));
  };

  if (!Number.isInteger(id) || id <= 0) return <ReportState kind="badLink" />;
  if (preview.isLoading) return <ReportState kind="loading" />;
  if (!preview.data) return <ReportState kind="notFound" />;
  const data = preview.data;

  const download = async (format: 'xlsx' | 'pdf') => {
    setBusy(format);
    try {
      await downloadReport(id, data.name, format);
    } catch {
      // shown by the http client
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card variant="borderless" className="rp-page" data-testid="report-preview-page">
      <div className="rp-toolbar">
        <Space wrap>
          <Button
            icon={<ArrowLeftOutlined />}
            onClick={() => back(data)}
            aria-label={t('back', '返回')}
            data-testid="preview-back"
          >
            {t('back', '返回')}
          </Button>
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="preview-name">
            {data.name}
          </Typography.Title>
          <Typography.Text type="secondary" data-testid="preview-generated">
            {t('generatedAt', '数据时间：{{time}}', {
              time: formatTime(data.generatedAt, undefined, data.timeZone),
            })}
            <ZoneHint full zone={data.timeZone} />
          </Typography.Text>
        </Space>
        <Space wrap>
          <Button
            icon={<ReloadOutlined />}
            loading={preview.isFetching}
            onClick={() => void preview.refetch()}
            data-testid="preview-refresh"
          >
            {t('refresh', '刷新')}
          </Button>
          {report.data && report.data.level >= DATA_PERMISSION.write && (
            <Button
              icon={<EditOutlined />}
              onClick={() => navigate(reportPaths.edit(data))}
              data-testid="preview-edit"
            >
              {t('edit', '编辑模板')}
            </Button>
          )}
          <Button
            icon={<FileExcelOutlined />}
            loading={busy === 'xlsx'}
            onClick={() => download('xlsx')}
            data-testid="preview-download-xlsx"
          >
            {t('downloadXlsx', '下载 Excel')}
          </Button>
          <Button
            icon={<FilePdfOutlined />}
            loading={busy === 'pdf'}
            onClick={() => download('pdf')}
            data-testid="preview-download-pdf"
          >
            {t('downloadPdf', '下载 PDF')}
          </Button>
        </Space>
      </div>
      <GridTable
        rows={data.rows}
        cols={data.cols}
        colWidths={data.colWidths}
        title={data.title}
        titleTestId="preview-title"
        cellAt={(r, c) => resolvedCell(data.grid[r]?.[c], t('noValue', '—'))}
        testId="report-preview-grid"
        cellTestId="preview-cell"
      />
    </Card>
  );
}
