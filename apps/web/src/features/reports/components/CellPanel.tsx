import { AlignCenterOutlined, AlignLeftOutlined, AlignRightOutlined, BoldOutlined } from '@ant-design/icons';
import {
  ACQUISITION_METHODS,
  type AcquisitionMethod,
  columnName,
  fieldReportDecimals,
  NUMERIC_FIELD_TYPES,
  RANGE_METHODS,
  REPORT_COL_WIDTH_MAX,
  REPORT_COL_WIDTH_MIN,
  REPORT_MAX_DECIMALS,
  type ReportAlign,
  type ReportCell,
  TIME_RANGES,
  type TimeRange,
} from '@platform/domain';
import {
  Button,
  ColorPicker,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Space,
  Tooltip,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { fromPickerValue, toPickerValue } from '../../../shared/time';
import { useDataItem } from '../../datacabin/api';
import { ItemPicker } from '../../datacabin/components/ItemPicker';
import type { CellContent, StyleChange } from '../model';

type Bind = Extract<CellContent, { kind: 'bind' }>;

/** fills offered first: light tints that keep black text readable in print */
const FILL_PRESETS = [
  '#fafafa',
  '#f0f0f0',
  '#e6f4ff',
  '#bae0ff',
  '#f6ffed',
  '#d9f7be',
  '#fffbe6',
  '#ffe58f',
  '#fff1f0',
  '#ffccc7',
];

/**
 * What the chosen cell holds: nothing, static text, or a binding (data item, numeric field,
 * acquisition method, time range where the method takes one, decimals); its style (bold,
 * alignment, fill: a style on an empty cell makes it an empty text cell); the width of its column.
 */
export function CellPanel({
  row,
  col,
  cell,
  width,
  onChange,
  onStyle,
  onWidth,
}: {
  row: number;
  col: number;
  cell: ReportCell | undefined;
  width: number;
  onChange: (content: CellContent | null) => void;
  onStyle: (change: StyleChange) => void;
  onWidth: (width: number) => void;
}) {
  const { t } = useTranslation('reports');
  const bind: Bind | null = cell?.kind === 'bind' ? stripPosition(cell) : null;
  const style = cell?.style ?? {};
  const item = useDataItem(bind?.itemId ?? 0);
  const numeric = (item.data?.fields ?? []).filter((f) => NUMERIC_FIELD_TYPES.includes(f.type));
  const boundField = numeric.find((f) => f.key === bind?.field);
  const fieldDecimals = boundField ? fieldReportDecimals(boundField) : undefined;
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
            const style = cell?.style;
            if (kind === 'empty') onChange(null);
            else if (kind === 'text') onChange({ kind: 'text', text: '', style });
            else onChange({ kind: 'bind', itemId: 0, field: '', method: 'latest', style });
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
            onChange={(e) => onChange({ kind: 'text', text: e.target.value, style: cell.style })}
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
                value={bind.from && bind.to ? [toPickerValue(bind.from), toPickerValue(bind.to)] : null}
                onChange={(range) =>
                  setBind({
                    from: range?.[0] ? fromPickerValue(range[0]) : undefined,
                    to: range?.[1] ? fromPickerValue(range[1]) : undefined,
                  })
                }
              />
            </Form.Item>
          )}
          <Form.Item
            label={t('decimals', '小数位数')}
            extra={t('decimalsHint', '留空则按字段的小数位数显示')}
          >
            <InputNumber
              min={0}
              max={REPORT_MAX_DECIMALS}
              precision={0}
              placeholder={fieldDecimals === undefined ? undefined : String(fieldDecimals)}
              value={bind.decimals ?? null}
              onChange={(v) => setBind({ decimals: v ?? undefined })}
              data-testid="report-cell-decimals"
            />
          </Form.Item>
        </>
      )}
      <Form.Item label={t('style', '样式')}>
        <Space wrap size={8}>
          <Tooltip title={t('bold', '加粗')}>
            <Button
              size="small"
              icon={<BoldOutlined />}
              type={style.bold ? 'primary' : 'default'}
              aria-label={t('bold', '加粗')}
              aria-pressed={style.bold === true}
              onClick={() => onStyle({ bold: !style.bold })}
              data-testid="report-style-bold"
            />
          </Tooltip>
          <Radio.Group
            size="small"
            optionType="button"
            value={style.align ?? 'auto'}
            onChange={(e) => {
              const align = e.target.value as ReportAlign | 'auto';
              onStyle({ align: align === 'auto' ? undefined : align });
            }}
            options={[
              { value: 'auto', label: t('alignAuto', '自动') },
              {
                value: 'left',
                label: <AlignLeftOutlined aria-label={t('alignLeft', '左对齐')} />,
                title: t('alignLeft', '左对齐'),
              },
              {
                value: 'center',
                label: <AlignCenterOutlined aria-label={t('alignCenter', '居中')} />,
                title: t('alignCenter', '居中'),
              },
              {
                value: 'right',
                label: <AlignRightOutlined aria-label={t('alignRight', '右对齐')} />,
                title: t('alignRight', '右对齐'),
              },
            ]}
            data-testid="report-style-align"
          />
          <ColorPicker
            size="small"
            value={style.fill ?? null}
            allowClear
            disabledAlpha
            showText={(color) => (style.fill ? color.toHexString() : t('fillNone', '无底色'))}
            presets={[{ label: t('fillPresets', '常用底色'), colors: FILL_PRESETS }]}
            onChangeComplete={(color) => onStyle({ fill: color.toHexString() })}
            onClear={() => onStyle({ fill: undefined })}
            data-testid="report-style-fill"
          />
        </Space>
      </Form.Item>
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
