import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { type FieldDef, JUMP_OPERATORS, type JumpOperator } from '@platform/domain';
import { Button, DatePicker, Input, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecordFilter } from '../api';

export interface FilterState {
  filters: RecordFilter[];
  range: [Dayjs, Dayjs] | null;
}

interface Row {
  id: number;
  field?: string;
  op: JumpOperator;
  value: string;
}

const NO_VALUE: readonly JumpOperator[] = ['empty', 'notEmpty'];
const NUMERIC = new Set([10, 1, 2]);

let nextRowId = 1;

/** Field filters (field, operator, value rows) and a time range; applied on "search". */
export function FilterPanel({
  fields,
  onApply,
}: {
  fields: FieldDef[];
  onApply: (state: FilterState) => void;
}) {
  const { t } = useTranslation('datarecords');
  const [rows, setRows] = useState<Row[]>([]);
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const filterable = fields.filter((f) => f.type !== 8 && f.type !== 9);

  const update = (id: number, patch: Partial<Row>) =>
    setRows((all) => all.map((row) => (row.id === id ? { ...row, ...patch } : row)));

  const apply = () => {
    const filters: RecordFilter[] = [];
    for (const row of rows) {
      if (!row.field) continue;
      if (NO_VALUE.includes(row.op)) {
        filters.push({ field: row.field, op: row.op });
        continue;
      }
      if (row.value.trim() === '') continue;
      const field = fields.find((f) => f.key === row.field);
      const numeric = field && NUMERIC.has(field.type) && Number.isFinite(Number(row.value));
      filters.push({ field: row.field, op: row.op, value: numeric ? Number(row.value) : row.value.trim() });
    }
    onApply({ filters, range });
  };

  return (
    <div className="dr-filter" data-testid="record-filter">
      <Space wrap size={8}>
        <span className="dr-muted">{t('filter.time', '时间范围')}</span>
        <DatePicker.RangePicker
          showTime
          value={range}
          onChange={(value) => setRange(value?.[0] && value[1] ? [value[0], value[1]] : null)}
          data-testid="record-filter-range"
        />
      </Space>
      {rows.map((row) => (
        <div key={row.id} className="dr-filter-row" data-testid="record-filter-row">
          <Select
            className="dr-filter-field"
            placeholder={t('filter.field', '字段')}
            value={row.field}
            options={filterable.map((f) => ({ value: f.key, label: f.name }))}
            onChange={(field) => update(row.id, { field })}
            data-testid="record-filter-field"
          />
          <Select
            className="dr-filter-op"
            value={row.op}
            options={JUMP_OPERATORS.map((op) => ({ value: op, label: t(`ops.${op}`, op) }))}
            onChange={(op) => update(row.id, { op })}
            data-testid="record-filter-op"
          />
          {NO_VALUE.includes(row.op) ? null : (
            <Input
              className="dr-filter-value"
              placeholder={t('filter.value', '值')}
              value={row.value}
              onChange={(e) => update(row.id, { value: e.target.value })}
              onPressEnter={apply}
              data-testid="record-filter-value"
            />
          )}
          <Button
            type="text"
            icon={<DeleteOutlined />}
            aria-label={t('common.delete', '删除')}
            onClick={() => setRows((all) => all.filter((r) => r.id !== row.id))}
          />
        </div>
      ))}
      <Space wrap size={8}>
        <Button
          icon={<PlusOutlined />}
          onClick={() => setRows((all) => [...all, { id: nextRowId++, op: 'eq', value: '' }])}
          data-testid="record-filter-add"
        >
          {t('filter.addCondition', '添加条件')}
        </Button>
        <Button type="primary" onClick={apply} data-testid="record-filter-apply">
          {t('filter.apply', '查询')}
        </Button>
        <Button
          data-testid="record-filter-reset"
          onClick={() => {
            setRows([]);
            setRange(null);
            onApply({ filters: [], range: null });
          }}
        >
          {t('filter.reset', '重置')}
        </Button>
      </Space>
    </div>
  );
}
