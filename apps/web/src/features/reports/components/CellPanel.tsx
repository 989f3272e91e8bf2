import {
  ACQUISITION_METHODS,
  type AcquisitionMethod,
  columnName,
  NUMERIC_FIELD_TYPES,
  RANGE_METHODS,
  REPORT_COL_WIDTH_MAX,
  REPORT_COL_WIDTH_MIN,
  REPORT_MAX_DECIMALS,
  type ReportCell,
  TIME_RANGES,
  type TimeRange,
} from '@platform/domain';
import { DatePicker, Form, Input, InputNumber, Radio, Select, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useDataItem } from '../../datacabin/api';
import { ItemPicker } from '../../datacabin/components/ItemPicker';
import type { CellContent } from '../model';

type Bind = Extract<CellContent, { kind: 'bind' }>;

/**
 * What the chosen cell holds: nothing, static text, or a binding (data item, numeric field,
 * acquisition method, time range where the method takes one, decimals). Also the width of its
 * column.
 */
export function CellPanel({
  row,
  col,
  cell,
  width,
  onChange,
  onWidth,
}: {
  row: number;
  col: number;
  cell: ReportCell | undefined;
  width: number;
  onChange: (content: CellContent | null) => void;
  onWidth: (width: number) => void;
}) {
  const { t } = useTranslation('reports');
  const bind: Bind | null = cell?.kind === 'bind' ? stripPosition(cell) : null;
  const item = useDataItem(bind?.itemId ?? 0);
  const numeric = (item.data?.fields ?? []).filter((f) => NUMERIC_FIELD_TYPES.includes(f.type));
  const setBind = (change: Partial<Bind>) => {
    if (bind) onChange({ ...bind, ...change });
  };

  return (
    <Form layout="vertical" className="rp-panel" data-testid="report-cell-panel">
      <Typography.Text strong data-testid="report-cell-name">
        {t('cellName', '单元格 {{name}}', { name: `${columnName(col)}${row + 1}` })}
      </Typography.Text>
      <Form.Item label={t('content', '内容')} style={{ marginTop: 8 }}>
        <Radio.Group
          value={cell?.kind ?? 'empty'}
          onChange={(e) => {
            const kind = e.target.value as string;
            if (kind === 'empty') onChange(null);
            else if (kind === 'text') onChange({ kind: 'text', text: '' });
            else onChange({ kind: 'bind', itemId: 0, field: '', method: 'latest' });
          }}
          options={[
            { value: 'empty', label: t('kindEmpty', '空') },
            { value: 'text', label: t('kindText', '静态文本') },
            { value: 'bind', label: t('kindBind', '绑定数据') },
          ]}
          data-testid="report-cell-kind"
        />
      </Form.Item>
      {cell?.kind === 'text' && (
        <Form.Item label={t('text', '文本')}>
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 6 }}
            maxLength={500}
            value={cell.text}
            onChange={(e) => onChange({ kind: 'text', text: e.target.value })}
            data-testid="report-cell-text"
          />
        </Form.Item>
      )}
      {bind && (
        <>
          <Form.Item label={t('item', '数据项')} required>
            <ItemPicker
              value={bind.itemId || null}
              onChange={(v) => setBind({ itemId: typeof v === 'number' ? v : 0, field: '' })}
              testId="report-cell-item"
            />
          </Form.Item>
          <Form.Item label={t('field', '字段')} required>
            <Select<string>
              value={bind.field || undefined}
              placeholder={t('fieldPick', '选择数值字段')}
              loading={item.isLoading && bind.itemId > 0}
              onChange={(field) => setBind({ field })}
              options={numeric.map((f) => ({
                value: f.key,
                label: f.unit ? `${f.name} (${f.unit})` : f.name,
              }))}
              notFoundContent={t('noNumeric', '没有数值字段')}
              data-testid="report-cell-field"
            />
          </Form.Item>
          <Form.Item label={t('method', '取值方式')} required>
            <Select<AcquisitionMethod>
              value={bind.method}
              onChange={(method) =>
                setBind({
                  method,
                  range: RANGE_METHODS.includes(method) ? (bind.range ?? 'today') : undefined,
                  from: undefined,
                  to: undefined,
                })
              }
              options={ACQUISITION_METHODS.map((m) => ({ value: m, label: t(`datacabin:method.${m}`, m) }))}
              data-testid="report-cell-method"
            />
          </Form.Item>
          {RANGE_METHODS.includes(bind.method) && (
            <Form.Item label={t('range', '时间范围')} required>
              <Select<TimeRange>
                value={bind.range ?? 'today'}
                onChange={(range) => setBind({ range, from: undefined, to: undefined })}
                options={TIME_RANGES.map((r) => ({ value: r, label: t(`datacabin:range.${r}`, r) }))}
                data-testid="report-cell-range"
              />
            </Form.Item>
          )}
          {RANGE_METHODS.includes(bind.method) && bind.range === 'period' && (
            <Form.Item label={t('period', '起止时间')} required>
              <DatePicker.RangePicker
                showTime
                value={bind.from && bind.to ? [dayjs(bind.from), dayjs(bind.to)] : null}
                onChange={(range) =>
                  setBind({ from: range?.[0]?.toISOString(), to: range?.[1]?.toISOString() })
                }
              />
            </Form.Item>
          )}
          <Form.Item label={t('decimals', '小数位数')} extra={t('decimalsHint', '留空则按计算结果显示')}>
            <InputNumber
              min={0}
              max={REPORT_MAX_DECIMALS}
              precision={0}
              value={bind.decimals ?? null}
              onChange={(v) => setBind({ decimals: v ?? undefined })}
              data-testid="report-cell-decimals"
            />
          </Form.Item>
        </>
      )}
      <Form.Item label={t('colWidth', '列宽 (px)')}>
        <InputNumber
          min={REPORT_COL_WIDTH_MIN}
          max={REPORT_COL_WIDTH_MAX}
          step={10}
          precision={0}
          value={width}
          onChange={(v) => v != null && onWidth(v)}
          data-testid="report-col-width"
        />
      </Form.Item>
    </Form>
  );
}

function stripPosition(cell: Extract<ReportCell, { kind: 'bind' }>): Bind {
  const { row: _row, col: _col, ...rest } = cell;
  return rest;
}
