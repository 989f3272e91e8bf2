import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import {
  BYTE_ORDERS,
  describeByteOrder,
  FIELD_TYPE_NAMES,
  FORMATS_OF_VALUE_TYPE,
  type FrameValueResult,
  fieldFitsValueType,
  PARSER_VALUE_TYPES,
  type ValueProblem,
} from '@platform/domain';
import { Button, Input, InputNumber, Select, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import type { ItemOption } from '../api';
import { colorOf, type Draft } from './draft';
import { useLabels } from './labels';
import { ResultText } from './ResultText';

interface Props {
  draft: Draft;
  index: number;
  count: number;
  result: FrameValueResult | undefined;
  /** what is wrong with the value, in the page's language */
  problems: Array<ValueProblem & { message: string }>;
  /** items the value may be bound to (writable), and bound ones the person may only read */
  items: ItemOption[];
  active: boolean;
  onChange: (patch: Partial<Draft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  onFocus: () => void;
}

function Cell({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'dc-cell dc-cell-wide' : 'dc-cell'}>
      <div className="dc-cell-label">{label}</div>
      {children}
    </div>
  );
}

/** One value of a parser: where it is read, how, and which item field it is stored in. */
export function ValueCard({
  draft,
  index,
  count,
  result,
  problems,
  items,
  active,
  onChange,
  onMove,
  onRemove,
  onFocus,
}: Props) {
  const { t, valueType, format } = useLabels();
  const problemOf = (field: string) => problems.some((p) => p.field === field);
  const status = (field: string) => (problemOf(field) ? ('error' as const) : undefined);
  const item = items.find((i) => i.id === draft.itemId);
  const length = draft.length ?? 0;
  const testId = (part: string) => `value-${index}-${part}`;

  return (
    <fieldset
      aria-label={draft.name}
      className={active ? 'dc-value dc-value-active' : 'dc-value'}
      style={{ borderLeftColor: colorOf(index) }}
      onFocusCapture={onFocus}
      onMouseEnter={onFocus}
      data-testid={`value-${index}`}
    >
      <div className="dc-value-head">
        <span className="dc-value-no" style={{ background: colorOf(index) }}>
          {index + 1}
        </span>
        <Input
          className="dc-value-name"
          value={draft.name}
          status={status('name')}
          placeholder={t('parser.name', '名称')}
          onChange={(e) => onChange({ name: e.target.value })}
          data-testid={testId('name')}
        />
        <div className="dc-value-result" data-testid={testId('result')}>
          <ResultText result={result} />
        </div>
        <div className="dc-value-tools">
          <Tooltip title={t('parser.moveUp', '上移')}>
            <Button
              size="small"
              type="text"
              icon={<ArrowUpOutlined />}
              disabled={index === 0}
              onClick={() => onMove(-1)}
            />
          </Tooltip>
          <Tooltip title={t('parser.moveDown', '下移')}>
            <Button
              size="small"
              type="text"
              icon={<ArrowDownOutlined />}
              disabled={index === count - 1}
              onClick={() => onMove(1)}
            />
          </Tooltip>
          <Tooltip title={t('parser.remove', '删除')}>
            <Button
              size="small"
              type="text"
              danger
              icon={<DeleteOutlined />}
              onClick={onRemove}
              data-testid={testId('remove')}
            />
          </Tooltip>
        </div>
      </div>
      <div className="dc-value-grid">
        <Cell label={t('parser.offset', '偏移（字节）')}>
          <InputNumber
            min={0}
            precision={0}
            value={draft.offset}
            status={status('offset')}
            onChange={(v) => onChange({ offset: v })}
            data-testid={testId('offset')}
          />
        </Cell>
        <Cell label={t('parser.length', '长度（字节）')}>
          <InputNumber
            min={1}
            precision={0}
            value={draft.length}
            status={status('length')}
            onChange={(v) => onChange({ length: v })}
            data-testid={testId('length')}
          />
        </Cell>
        <Cell label={t('parser.valueType', '值类型')}>
          <Select
            value={draft.valueType}
            onChange={(v) => onChange({ valueType: v })}
            options={PARSER_VALUE_TYPES.map((v) => ({ value: v, label: valueType(v) }))}
            data-testid={testId('valueType')}
          />
        </Cell>
        <Cell label={t('parser.format', '数值格式')}>
          <Select
            value={draft.format}
            status={status('format')}
            onChange={(v) => onChange({ format: v })}
            options={FORMATS_OF_VALUE_TYPE[draft.valueType].map((f) => ({ value: f, label: format(f) }))}
            data-testid={testId('format')}
          />
        </Cell>
        <Cell label={t('parser.order', '字节序')} wide>
          <Select
            value={draft.order}
            status={status('order')}
            disabled={draft.format === 'hex' || length < 2}
            onChange={(v) => onChange({ order: v })}
            popupMatchSelectWidth={false}
            optionLabelProp="short"
            options={BYTE_ORDERS.map((o) => ({
              value: o,
              short: `${o}  ·  ${describeByteOrder(o, length)}`,
              label: (
                <span className="dc-order-option">
                  <b>{o}</b>
                  <span className="dc-mono">{describeByteOrder(o, length)}</span>
                </span>
              ),
            }))}
            data-testid={testId('order')}
          />
          <div className="dc-muted" data-testid={testId('permutation')}>
            {draft.format === 'hex' || length < 2
              ? t('parser.asReceived', '按接收顺序')
              : t('parser.arrives', '收到的字节依次为 {{permutation}}', {
                  permutation: describeByteOrder(draft.order, length),
                })}
          </div>
        </Cell>
        {draft.format === 'bit' ? (
          <Cell label={t('parser.bit', '位序号（0 = 最低位）')}>
            <InputNumber
              min={0}
              max={Math.max(0, length * 8 - 1)}
              precision={0}
              value={draft.bit}
              status={status('bit')}
              onChange={(v) => onChange({ bit: v })}
              data-testid={testId('bit')}
            />
          </Cell>
        ) : null}
        {draft.format !== 'hex' ? (
          <>
            <Cell label={t('parser.scale', '倍率')}>
              <InputNumber
                value={draft.scale}
                status={status('scale')}
                onChange={(v) => onChange({ scale: v })}
                data-testid={testId('scale')}
              />
            </Cell>
            <Cell label={t('parser.valueOffset', '数值偏移')}>
              <InputNumber
                value={draft.valueOffset}
                status={status('valueOffset')}
                onChange={(v) => onChange({ valueOffset: v })}
                data-testid={testId('valueOffset')}
              />
            </Cell>
          </>
        ) : null}
        {draft.valueType === 'decimal' ? (
          <Cell label={t('parser.decimals', '小数位')}>
            <InputNumber
              min={0}
              max={6}
              precision={0}
              value={draft.decimals}
              status={status('decimals')}
              placeholder={t('parser.decimalsAll', '不限')}
              onChange={(v) => onChange({ decimals: v })}
              data-testid={testId('decimals')}
            />
          </Cell>
        ) : null}
        <Cell label={t('parser.item', '存入数据项')} wide>
          <Select
            showSearch
            optionFilterProp="label"
            value={draft.itemId ?? undefined}
            status={status('itemId')}
            placeholder={t('parser.pickItem', '选择物联网数据列表')}
            onChange={(v: number) => onChange({ itemId: v })}
            options={[
              ...items.map((i) => ({
                value: i.id,
                label: i.level >= 2 ? i.name : `${i.name} ${t('parser.readOnly', '（无写权限）')}`,
                disabled: i.level < 2,
              })),
              // bound to an item since deleted, or one the person cannot read
              ...(draft.itemId != null && !item
                ? [
                    {
                      value: draft.itemId,
                      label: t('parser.itemGone', '数据项 #{{id}} 已删除或无权查看', { id: draft.itemId }),
                      disabled: true,
                    },
                  ]
                : []),
            ]}
            notFoundContent={t('parser.noItems', '没有您可写入的物联网数据列表')}
            data-testid={testId('item')}
          />
        </Cell>
        <Cell label={t('parser.field', '字段')}>
          <Select
            value={draft.fieldKey ?? undefined}
            status={status('fieldKey')}
            disabled={!item}
            placeholder={t('parser.pickField', '选择字段')}
            onChange={(v: string) => onChange({ fieldKey: v })}
            options={(item?.fields ?? []).map((f) => {
              const fits = fieldFitsValueType(draft.valueType, f.type);
              return {
                value: f.key,
                label: fits
                  ? f.name
                  : `${f.name}（${t(`fieldTypes.${FIELD_TYPE_NAMES[f.type]}`, FIELD_TYPE_NAMES[f.type])}）`,
                disabled: !fits,
              };
            })}
            data-testid={testId('field')}
          />
        </Cell>
      </div>
      {problems.length > 0 ? (
        <ul className="dc-problems" data-testid={testId('problems')}>
          {problems.map((p) => (
            <li key={`${p.field}-${p.key}`}>{p.message}</li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
