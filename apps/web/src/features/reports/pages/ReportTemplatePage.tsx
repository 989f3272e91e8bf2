import { EditOutlined, EyeOutlined } from '@ant-design/icons';
import { DATA_PERMISSION, type ReportCell, type ReportTemplate } from '@platform/domain';
import { Button, Card, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useReport } from '../api';
import { BindingLabel } from '../components/BindingLabel';
import { cellCss, type GridCell, GridTable } from '../components/GridTable';
import { ReportState } from '../components/ReportState';
import { cellAt, mergeAt } from '../model';
import { reportPaths } from '../paths';
import '../reports.css';

/** A template cell as the template view and the editor draw it: text, or what it is bound to. */
export function templateCell(template: ReportTemplate, row: number, col: number, className = ''): GridCell {
  const merge = mergeAt(template, row, col);
  if (merge && (merge.row !== row || merge.col !== col)) return { covered: true, content: null };
  const cell: ReportCell | undefined = cellAt(template, row, col);
  const span = { rowSpan: merge?.rowSpan ?? 1, colSpan: merge?.colSpan ?? 1 };
  if (!cell) return { ...span, content: null, className };
  const style = cellCss(cell.style);
  if (cell.kind === 'text') return { ...span, content: cell.text, className, style };
  return { ...span, content: <BindingLabel binding={cell} />, className: `rp-bind ${className}`, style };
}

/**
 * /smartdata/reportTemplate/:entityId/:name — a report template (entityId = its cabin node):
 * its grid with static texts and the bindings of its cells; edit (write level) and preview.
 */
export default function ReportTemplatePage() {
  const { t } = useTranslation('reports');
  const navigate = useNavigate();
  const params = useParams();
  const id = Number(params.entityId);
  const report = useReport(id);

  if (!Number.isInteger(id) || id <= 0) return <ReportState kind="badLink" />;
  if (report.isLoading) return <ReportState kind="loading" />;
  if (!report.data) return <ReportState kind="notFound" />;
  const data = report.data;
  const template = data.template;
  const bound = template.cells.filter((c) => c.kind === 'bind').length;

  return (
    <Card variant="borderless" className="rp-page" data-testid="report-template-page">
      <div className="rp-toolbar">
        <Space wrap>
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="report-name">
            {data.name}
          </Typography.Title>
          <Tag>{t('size', '{{rows}} 行 × {{cols}} 列', { rows: template.rows, cols: template.cols })}</Tag>
          <Tag color="blue">{t('boundCount', '{{count}} 个绑定单元格', { count: bound })}</Tag>
        </Space>
        <Space wrap>
          <Button
            icon={<EditOutlined />}
            disabled={data.level < DATA_PERMISSION.write}
            onClick={() => navigate(reportPaths.edit(data))}
            data-testid="report-edit"
          >
            {t('edit', '编辑模板')}
          </Button>
          <Button
            type="primary"
            icon={<EyeOutlined />}
            onClick={() => navigate(reportPaths.preview(data.id))}
            data-testid="report-preview"
          >
            {t('preview', '预览')}
          </Button>
        </Space>
      </div>
      <GridTable
        rows={template.rows}
        cols={template.cols}
        colWidths={template.colWidths}
        title={template.title}
        titleTestId="template-title"
        headers
        cellAt={(r, c) => templateCell(template, r, c)}
        testId="report-template-grid"
        cellTestId="template-cell"
      />
    </Card>
  );
}
