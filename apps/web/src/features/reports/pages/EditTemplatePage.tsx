import { EyeOutlined, MergeCellsOutlined, SaveOutlined, SplitCellsOutlined } from '@ant-design/icons';
import {
  DATA_PERMISSION,
  REPORT_MAX_COLS,
  REPORT_MAX_ROWS,
  REPORT_TITLE_MAX,
  type ReportTemplate,
} from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, InputNumber, Space, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { reportApi, reportKeys, useReport } from '../api';
import { CellPanel } from '../components/CellPanel';
import { GridTable } from '../components/GridTable';
import { ReportState } from '../components/ReportState';
import {
  type Area,
  anchorOf,
  areaOf,
  cellAt,
  inArea,
  mergeArea,
  mergeAt,
  putCell,
  resize,
  setColWidth,
  styleCell,
  unmerge,
} from '../model';
import { reportPaths } from '../paths';
import '../reports.css';
import { templateCell } from './ReportTemplatePage';

/**
 * /smartdata/editTemplate/:entityId/:name — the grid editor of a report template. Click a cell
 * to choose it (shift-click to choose a rectangle, then merge), set it to static text or a
 * binding in the side panel, save. Needs write level on the report.
 */
export default function EditTemplatePage() {
  const { t } = useTranslation('reports');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const params = useParams();
  const id = Number(params.entityId);
  const report = useReport(id);
  const [draft, setDraft] = useState<ReportTemplate | null>(null);
  const [focus, setFocus] = useState<{ row: number; col: number }>({ row: 0, col: 0 });
  const [area, setArea] = useState<Area>({ row: 0, col: 0, rowSpan: 1, colSpan: 1 });
  const [saving, setSaving] = useState(false);
  const [dirty, setDirty] = useState(false);

  useEffect(() => {
    if (report.data && draft === null) setDraft(report.data.template);
  }, [report.data, draft]);

  if (!Number.isInteger(id) || id <= 0) return <ReportState kind="badLink" />;
  if (report.isLoading || (report.data && !draft)) return <ReportState kind="loading" />;
  if (!report.data || !draft) return <ReportState kind="notFound" />;
  const data = report.data;
  const editable = data.level >= DATA_PERMISSION.write;

  const change = (next: ReportTemplate) => {
    setDraft(next);
    setDirty(true);
    // a resize may have taken the chosen cell away
    if (focus.row >= next.rows || focus.col >= next.cols) {
      setFocus({ row: 0, col: 0 });
      setArea({ row: 0, col: 0, rowSpan: 1, colSpan: 1 });
    }
  };
  const choose = (row: number, col: number, extend: boolean) => {
    const at = anchorOf(draft, row, col);
    if (extend) {
      setArea(areaOf(draft, focus, at));
      return;
    }
    setFocus(at);
    const m = mergeAt(draft, at.row, at.col);
    setArea(m ? { ...m } : { ...at, rowSpan: 1, colSpan: 1 });
  };

  const save = async () => {
    setSaving(true);
    try {
      const envelope = await reportApi.save(id, draft);
      message.success(envelope.message);
      setDirty(false);
      await queryClient.invalidateQueries({ queryKey: reportKeys.all });
      return true;
    } catch {
      return false; // the http client showed the error, naming the cell's part
    } finally {
      setSaving(false);
    }
  };

  const focusMerge = mergeAt(draft, focus.row, focus.col);
  const canMerge = area.rowSpan * area.colSpan > 1 && !(focusMerge && sameArea(focusMerge, area));

  return (
    <Card variant="borderless" className="rp-page" data-testid="report-edit-page">
      <div className="rp-toolbar">
        <Space wrap>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('editTitle', '编辑报表：{{name}}', { name: data.name })}
          </Typography.Title>
        </Space>
        <Space wrap>
          <Tooltip title={dirty ? t('saveFirst', '有未保存的修改：预览显示已保存的模板') : undefined}>
            <Button
              icon={<EyeOutlined />}
              onClick={() => navigate(reportPaths.preview(id))}
              data-testid="report-preview"
            >
              {t('preview', '预览')}
            </Button>
          </Tooltip>
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={saving}
            disabled={!editable}
            onClick={save}
            data-testid="report-save"
          >
            {t('save', '保存')}
          </Button>
        </Space>
      </div>
      {!editable && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('readOnly', '您只有只读权限，不能保存修改。')}
        />
      )}
      <Space wrap style={{ marginBottom: 12 }}>
        <Input
          style={{ width: 320 }}
          addonBefore={t('reportTitle', '报表标题')}
          maxLength={REPORT_TITLE_MAX}
          value={draft.title}
          onChange={(e) => change({ ...draft, title: e.target.value })}
          data-testid="report-title"
        />
        <InputNumber
          addonBefore={t('rows', '行数')}
          min={1}
          max={REPORT_MAX_ROWS}
          precision={0}
          value={draft.rows}
          onChange={(v) => v != null && change(resize(draft, v, draft.cols))}
          data-testid="report-rows"
        />
        <InputNumber
          addonBefore={t('cols', '列数')}
          min={1}
          max={REPORT_MAX_COLS}
          precision={0}
          value={draft.cols}
          onChange={(v) => v != null && change(resize(draft, draft.rows, v))}
          data-testid="report-cols"
        />
        <Button
          icon={<MergeCellsOutlined />}
          disabled={!canMerge}
          onClick={() => {
            change(mergeArea(draft, area));
            setFocus({ row: area.row, col: area.col });
          }}
          data-testid="report-merge"
        >
          {t('merge', '合并单元格')}
        </Button>
        <Button
          icon={<SplitCellsOutlined />}
          disabled={!focusMerge}
          onClick={() => {
            change(unmerge(draft, focus.row, focus.col));
            setArea({ ...focus, rowSpan: 1, colSpan: 1 });
          }}
          data-testid="report-unmerge"
        >
          {t('unmerge', '取消合并')}
        </Button>
        <Typography.Text type="secondary">
          {t('hint', '单击选择单元格，按住 Shift 单击选择区域')}
        </Typography.Text>
      </Space>
      <div className="rp-editor">
        <div>
          <GridTable
            rows={draft.rows}
            cols={draft.cols}
            colWidths={draft.colWidths}
            title={draft.title}
            headers
            cellAt={(r, c) => templateCell(draft, r, c, inArea(area, r, c) ? 'rp-selected' : '')}
            onCellClick={choose}
            testId="report-edit-grid"
            cellTestId="edit-cell"
          />
        </div>
        <Card size="small">
          <CellPanel
            key={`${focus.row}:${focus.col}`}
            row={focus.row}
            col={focus.col}
            cell={cellAt(draft, focus.row, focus.col)}
            width={draft.colWidths[focus.col] ?? 120}
            onChange={(content) => change(putCell(draft, focus.row, focus.col, content))}
            onStyle={(style) => change(styleCell(draft, focus.row, focus.col, style))}
            onWidth={(w) => change(setColWidth(draft, focus.col, w))}
          />
        </Card>
      </div>
    </Card>
  );
}

function sameArea(a: Area, b: Area): boolean {
  return a.row === b.row && a.col === b.col && a.rowSpan === b.rowSpan && a.colSpan === b.colSpan;
}
