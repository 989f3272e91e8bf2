import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  checkDataItemName,
  DATE_FORMATS,
  type DateFormat,
  FIELD_TYPES,
  type FieldType,
} from '@platform/domain';
import { App, Button, Checkbox, Input, InputNumber, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cabinApi, type DataItem, type EditableField } from '../api';
import { errorText } from '../cabin';

interface Row extends EditableField {
  /** stable row id while editing (new fields have no key yet) */
  rid: string;
}

let seq = 0;
const rid = () => `r${++seq}`;

/** The first problem of the field list, with the row it is on, or null. */
function problemOf(rows: Row[], duplicate: string): { index: number; text: string } | null {
  const seen = new Set<string>();
  for (const [index, row] of rows.entries()) {
    const name = row.name.trim();
    if (name === '') return { index, text: errorText('dataNameRequired') };
    const bad = checkDataItemName(name);
    if (bad) return { index, text: errorText(bad) };
    if (row.type == null) return { index, text: errorText('typeEntriesIncomplete') };
    if (seen.has(name)) return { index, text: duplicate };
    seen.add(name);
  }
  return null;
}

/** Field definitions of a data item: name, unit, type, date format, required, decimals. */
export function FieldsTab({
  item,
  editable,
  onSaved,
}: {
  item: DataItem;
  editable: boolean;
  onSaved: (item: DataItem) => void;
}) {
  const { t } = useTranslation('datacabin');
  const { message } = App.useApp();
  const [rows, setRows] = useState<Row[]>([]);
  const [titleField, setTitleField] = useState<string | null>(null);
  const [bad, setBad] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    setRows(item.fields.map((f) => ({ ...f, rid: rid() })));
    setTitleField(item.titleField);
    setBad(null);
  }, [item]);

  const patch = (index: number, change: Partial<Row>) => {
    setRows((list) => list.map((r, i) => (i === index ? { ...r, ...change } : r)));
    if (bad === index) setBad(null);
  };
  const swap = (a: number, b: number) =>
    setRows((list) => {
      const next = [...list];
      const [x, y] = [next[a], next[b]];
      if (!x || !y) return list;
      next[a] = y;
      next[b] = x;
      return next;
    });

  const save = async () => {
    const problem = problemOf(rows, t('fields.duplicate', '字段名称不能重复'));
    if (problem) {
      setBad(problem.index);
      message.error(problem.text);
      return;
    }
    setSaving(true);
    try {
      const fields: EditableField[] = rows.map(({ rid: _rid, ...field }) => ({
        ...field,
        name: field.name.trim(),
        unit: field.unit?.trim() || undefined,
        dateFormat: field.type === 4 ? (field.dateFormat ?? DATE_FORMATS[0]) : undefined,
        decimals: field.type === 1 || field.type === 2 ? field.decimals : undefined,
      }));
      const stillThere = rows.some((r) => r.key && r.key === titleField);
      const envelope = await cabinApi.updateItem({
        itemId: item.id,
        fields,
        titleField: stillThere ? titleField : null,
      });
      message.success(envelope.message);
      onSaved(envelope.data);
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  const columns: ColumnsType<Row> = [
    {
      title: '#',
      key: 'order',
      width: 80,
      render: (_, __, index) => (
        <Space size={0}>
          <Button
            type="text"
            size="small"
            icon={<ArrowUpOutlined />}
            disabled={!editable || index === 0}
            onClick={() => swap(index, index - 1)}
            aria-label={t('fields.up', '上移')}
          />
          <Button
            type="text"
            size="small"
            icon={<ArrowDownOutlined />}
            disabled={!editable || index === rows.length - 1}
            onClick={() => swap(index, index + 1)}
            aria-label={t('fields.down', '下移')}
          />
        </Space>
      ),
    },
    {
      title: t('fields.name', '字段名称'),
      key: 'name',
      width: 200,
      render: (_, row, index) => (
        <Input
          value={row.name}
          maxLength={25}
          disabled={!editable}
          status={bad === index ? 'error' : undefined}
          onChange={(e) => patch(index, { name: e.target.value })}
          data-testid={`field-name-${index}`}
        />
      ),
    },
    {
      title: t('fields.unit', '单位'),
      key: 'unit',
      width: 110,
      render: (_, row, index) => (
        <Input
          value={row.unit ?? ''}
          maxLength={16}
          disabled={!editable}
          onChange={(e) => patch(index, { unit: e.target.value })}
          data-testid={`field-unit-${index}`}
        />
      ),
    },
    {
      title: t('fields.type', '类型'),
      key: 'type',
      width: 150,
      render: (_, row, index) => (
        <Select<FieldType>
          value={row.type}
          disabled={!editable}
          style={{ width: '100%' }}
          status={bad === index && row.type == null ? 'error' : undefined}
          onChange={(type) => patch(index, { type })}
          options={FIELD_TYPES.map((type) => ({ value: type, label: t(`fieldType.${type}`, String(type)) }))}
          data-testid={`field-type-${index}`}
        />
      ),
    },
    {
      title: t('fields.format', '格式 / 小数位'),
      key: 'format',
      width: 190,
      render: (_, row, index) =>
        row.type === 4 ? (
          <Select<DateFormat>
            value={row.dateFormat ?? DATE_FORMATS[0]}
            disabled={!editable}
            style={{ width: '100%' }}
            onChange={(dateFormat) => patch(index, { dateFormat })}
            options={DATE_FORMATS.map((f) => ({ value: f, label: f }))}
          />
        ) : row.type === 1 || row.type === 2 ? (
          <InputNumber
            min={0}
            max={10}
            precision={0}
            disabled={!editable}
            value={row.decimals ?? (row.type === 2 ? 2 : undefined)}
            placeholder={t('fields.decimals', '小数位')}
            onChange={(decimals) => patch(index, { decimals: decimals ?? undefined })}
          />
        ) : (
          <span className="dc-muted">—</span>
        ),
    },
    {
      title: t('fields.required', '必填'),
      key: 'required',
      width: 70,
      align: 'center',
      render: (_, row, index) => (
        <Checkbox
          checked={Boolean(row.required)}
          disabled={!editable}
          onChange={(e) => patch(index, { required: e.target.checked })}
        />
      ),
    },
    {
      title: t('fields.key', '键'),
      key: 'key',
      width: 70,
      render: (_, row) => <span className="dc-muted">{row.key ?? t('fields.new', '新')}</span>,
    },
    {
      title: '',
      key: 'remove',
      width: 50,
      render: (_, __, index) => (
        <Button
          type="text"
          danger
          icon={<DeleteOutlined />}
          disabled={!editable}
          aria-label={t('common.delete', '删除')}
          onClick={() => setRows((list) => list.filter((_r, i) => i !== index))}
          data-testid={`field-remove-${index}`}
        />
      ),
    },
  ];

  return (
    <div data-testid="fields-tab">
      <div className="dc-tab-actions">
        <Space wrap>
          <Button
            icon={<PlusOutlined />}
            disabled={!editable}
            onClick={() => setRows((list) => [...list, { rid: rid(), name: '', type: 5 }])}
            data-testid="field-add"
          >
            {t('fields.add', '添加字段')}
          </Button>
          <Space size={8} className="dc-nowrap">
            <Typography.Text type="secondary">{t('fields.titleField', '标题字段')}</Typography.Text>
            <Select<string>
              allowClear
              style={{ width: 180 }}
              value={titleField ?? undefined}
              disabled={!editable}
              onChange={(value) => setTitleField(value ?? null)}
              options={rows.filter((r) => r.key).map((r) => ({ value: r.key as string, label: r.name }))}
              placeholder={t('fields.titleFieldHint', '列表中代表记录的字段')}
            />
          </Space>
        </Space>
        <Button type="primary" loading={saving} disabled={!editable} onClick={save} data-testid="fields-save">
          {t('common.save', '保存')}
        </Button>
      </div>
      <Table<Row>
        rowKey="rid"
        size="small"
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 920 }}
        locale={{ emptyText: t('fields.empty', '还没有字段。点击“添加字段”开始定义。') }}
      />
      <Typography.Paragraph type="secondary" className="dc-gap-top">
        {t(
          'fields.removeHint',
          '删除字段不会删除已有记录中的值，它们只是不再显示。数值字段（整数、小数、货币）可用于统计与智能分析。',
        )}
      </Typography.Paragraph>
    </div>
  );
}
