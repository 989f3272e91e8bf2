import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  ACQUISITION_METHODS,
  type AcquisitionMethod,
  AGGREGATES,
  type Aggregate,
  type AnalysisAssignment,
  type FieldDef,
  NUMERIC_FIELD_TYPES,
  RANGE_METHODS,
  TIME_RANGES,
  type TimeRange,
} from '@platform/domain';
import { Button, DatePicker, Input, Radio, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fromPickerValue, toPickerValue } from '../../../shared/time';
import { useDataItem } from '../api';
import { ItemPicker } from '../components/ItemPicker';

type Ref = Extract<AnalysisAssignment, { mode: 'ref' }>;

/** The numeric fields of one source item (acquisition methods work on numbers). */
function SourceField({
  itemId,
  value,
  onChange,
}: {
  itemId: number | null;
  value: string;
  onChange: (field: string) => void;
}) {
  const { t } = useTranslation('datacabin');
  const item = useDataItem(itemId ?? 0);
  const fields = (item.data?.fields ?? []).filter((f) => NUMERIC_FIELD_TYPES.includes(f.type));
  return (
    <Select<string>
      style={{ width: 160 }}
      placeholder={t('analysis.sourceField', '来源字段')}
      value={value || undefined}
      loading={item.isLoading && itemId != null}
      onChange={onChange}
      options={fields.map((f) => ({ value: f.key, label: f.unit ? `${f.name} (${f.unit})` : f.name }))}
      notFoundContent={t('analysis.noNumeric', '没有数值字段')}
    />
  );
}

/**
 * How one field of the job's output record is computed: from other data items (sources,
 * acquisition method, time range, aggregate of several) or a custom value.
 */
export function AssignmentEditor({
  field,
  value,
  onChange,
}: {
  field: FieldDef;
  value: AnalysisAssignment | undefined;
  onChange: (value: AnalysisAssignment | undefined) => void;
}) {
  const { t } = useTranslation('datacabin');
  const mode = value?.mode ?? 'none';
  const ref = value?.mode === 'ref' ? value : null;
  const setRef = (change: Partial<Ref>) => {
    if (!ref) return;
    onChange({ ...ref, ...change });
  };
  const sources = ref?.sources ?? [];

  return (
    <div className="dc-form-element" data-testid={`assignment-${field.key}`}>
      <Space wrap className="dc-gap">
        <Typography.Text strong>
          {field.name}
          {field.unit ? ` (${field.unit})` : ''}
        </Typography.Text>
        <Radio.Group
          value={mode}
          onChange={(e) => {
            const next = e.target.value as string;
            if (next === 'none') onChange(undefined);
            else if (next === 'custom') onChange({ field: field.key, mode: 'custom', value: '' });
            else
              onChange({
                field: field.key,
                mode: 'ref',
                sources: [{ itemId: 0, field: '' }],
                method: 'latest',
              });
          }}
          options={[
            { value: 'none', label: t('analysis.modeNone', '不赋值') },
            { value: 'ref', label: t('analysis.modeRef', '引用数据项') },
            { value: 'custom', label: t('analysis.modeCustom', '自定义值') },
          ]}
        />
      </Space>
      {value?.mode === 'custom' && (
        <Input
          style={{ maxWidth: 320 }}
          value={String(value.value ?? '')}
          placeholder={t('analysis.customValue', '自定义值')}
          onChange={(e) => onChange({ ...value, value: e.target.value })}
        />
      )}
      {ref && (
        <Space direction="vertical" style={{ width: '100%' }}>
          {sources.map((source, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: condition rows have no identity of their own; they are edited by position
            <div className="dc-cond-row" key={`s${index}`}>
              <ItemPicker
                style={{ width: 240 }}
                value={source.itemId || null}
                onChange={(v) =>
                  setRef({
                    sources: sources.map((s, i) =>
                      i === index ? { itemId: typeof v === 'number' ? v : 0, field: '' } : s,
                    ),
                  })
                }
              />
              <SourceField
                itemId={source.itemId || null}
                value={source.field}
                onChange={(f) =>
                  setRef({ sources: sources.map((s, i) => (i === index ? { ...s, field: f } : s)) })
                }
              />
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                disabled={sources.length === 1}
                aria-label={t('common.delete', '删除')}
                onClick={() => setRef({ sources: sources.filter((_, i) => i !== index) })}
              />
            </div>
          ))}
          <Button
            type="dashed"
            size="small"
            icon={<PlusOutlined />}
            onClick={() =>
              setRef({ sources: [...sources, { itemId: 0, field: '' }], aggregate: ref.aggregate ?? 'SUM' })
            }
          >
            {t('analysis.addSource', '添加来源')}
          </Button>
          <Space wrap>
            <Select<AcquisitionMethod>
              style={{ width: 200 }}
              value={ref.method}
              onChange={(method) =>
                setRef({
                  method,
                  range: RANGE_METHODS.includes(method) ? (ref.range ?? 'today') : undefined,
                  from: undefined,
                  to: undefined,
                })
              }
              options={ACQUISITION_METHODS.map((m) => ({ value: m, label: t(`method.${m}`, m) }))}
            />
            {RANGE_METHODS.includes(ref.method) && (
              <Select<TimeRange>
                style={{ width: 150 }}
                value={ref.range ?? 'today'}
                onChange={(range) => setRef({ range })}
                options={TIME_RANGES.map((r) => ({ value: r, label: t(`range.${r}`, r) }))}
              />
            )}
            {RANGE_METHODS.includes(ref.method) && ref.range === 'period' && (
              <DatePicker.RangePicker
                showTime
                value={ref.from && ref.to ? [toPickerValue(ref.from), toPickerValue(ref.to)] : null}
                onChange={(range) =>
                  setRef({
                    from: range?.[0] ? fromPickerValue(range[0]) : undefined,
                    to: range?.[1] ? fromPickerValue(range[1]) : undefined,
                  })
                }
              />
            )}
            {sources.length > 1 && (
              <Select<Aggregate>
                style={{ width: 120 }}
                value={ref.aggregate ?? 'SUM'}
                onChange={(aggregate) => setRef({ aggregate })}
                options={AGGREGATES.map((a) => ({ value: a, label: t(`aggregate.${a}`, a) }))}
              />
            )}
          </Space>
        </Space>
      )}
    </div>
  );
}

/** True when an assignment is complete enough to send. */
export function assignmentComplete(a: AnalysisAssignment): boolean {
  if (a.mode === 'custom') return String(a.value ?? '').trim() !== '';
  if (a.sources.length === 0 || a.sources.some((s) => !s.itemId || !s.field)) return false;
  if (RANGE_METHODS.includes(a.method) && !a.range) return false;
  if (a.range === 'period' && (!a.from || !a.to)) return false;
  return true;
}
