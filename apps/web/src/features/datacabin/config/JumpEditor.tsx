import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  type FieldDef,
  JUMP_OPERATORS,
  type JumpCondition,
  type JumpMapping,
  type JumpOperator,
} from '@platform/domain';
import {
  Alert,
  App,
  Button,
  Drawer,
  Form,
  Grid,
  Input,
  InputNumber,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cabinApi, type DataItem, type Jump, useDataItem } from '../api';
import { errorText } from '../cabin';
import { ItemPicker } from '../components/ItemPicker';

interface Draft {
  priority: number;
  name: string;
  enabled: boolean;
  conditions: JumpCondition[];
  targetItemId: number | null;
  mapping: JumpMapping[];
}

const NO_VALUE: readonly JumpOperator[] = ['empty', 'notEmpty'];

function fresh(): Draft {
  return { priority: 1, name: '', enabled: true, conditions: [], targetItemId: null, mapping: [] };
}

/** The first problem of a jump, in the catalogue's words, or null. */
export function jumpProblem(draft: Draft, itemId: number): { field: string; text: string } | null {
  if (draft.targetItemId === itemId) return { field: 'targetItemId', text: errorText('jumpSelf') };
  const incomplete =
    draft.name.trim() === '' ||
    draft.targetItemId == null ||
    draft.conditions.some(
      (c) => !c.field || !c.op || (!NO_VALUE.includes(c.op) && (c.value == null || c.value === '')),
    );
  if (incomplete) return { field: 'name', text: errorText('jumpIncomplete') };
  return null;
}

/**
 * Edit one jump association: when a new record of this item meets the conditions, a record
 * is written into the destination item with the mapped values. Higher priority runs first.
 */
export function JumpEditor({
  item,
  jump,
  open,
  onClose,
  onSaved,
}: {
  item: DataItem;
  jump: Jump | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('datacabin');
  const { message } = App.useApp();
  const screens = Grid.useBreakpoint();
  const [draft, setDraft] = useState<Draft>(fresh);
  const [problem, setProblem] = useState<{ field: string; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const target = useDataItem(draft.targetItemId ?? 0);
  const targetFields: FieldDef[] = draft.targetItemId === item.id ? [] : (target.data?.fields ?? []);

  useEffect(() => {
    if (!open) return;
    setProblem(null);
    setDraft(
      jump
        ? {
            priority: jump.priority,
            name: jump.name,
            enabled: jump.enabled,
            conditions: jump.conditions,
            targetItemId: jump.targetItemId,
            mapping: jump.mapping,
          }
        : fresh(),
    );
  }, [open, jump]);

  const set = (change: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setProblem(null);
  };
  const setCondition = (index: number, change: Partial<JumpCondition>) =>
    set({ conditions: draft.conditions.map((c, i) => (i === index ? { ...c, ...change } : c)) });
  const setMapping = (to: string, change: Omit<JumpMapping, 'to'> | null) => {
    const rest = draft.mapping.filter((m) => m.to !== to);
    set({ mapping: change ? [...rest, { to, ...change }] : rest });
  };

  const save = async () => {
    const found = jumpProblem(draft, item.id);
    if (found) {
      setProblem(found);
      message.error(found.text);
      return;
    }
    setSaving(true);
    try {
      const envelope = await cabinApi.saveJump({
        itemId: item.id,
        ...(jump ? { id: jump.id } : {}),
        priority: draft.priority,
        name: draft.name.trim(),
        enabled: draft.enabled,
        conditions: draft.conditions,
        targetItemId: draft.targetItemId as number,
        mapping: draft.mapping.filter((m) => targetFields.some((f) => f.key === m.to)),
      });
      message.success(envelope.message);
      onSaved();
      onClose();
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={screens.md ? 720 : '100%'}
      title={jump ? t('jumps.edit', '编辑跳转') : t('jumps.add', '新增跳转')}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel', '取消')}</Button>
          <Button type="primary" loading={saving} onClick={save} data-testid="jump-save">
            {t('common.save', '保存')}
          </Button>
        </Space>
      }
    >
      <Form layout="vertical" data-testid="jump-editor">
        {problem && (
          <Alert type="error" showIcon className="dc-gap" title={problem.text} data-testid="jump-error" />
        )}
        <Space wrap size="large">
          <Form.Item
            label={t('jumps.priority', '优先级')}
            tooltip={t('jumps.priorityHint', '数字越大越先执行')}
          >
            <InputNumber
              min={0}
              max={9999}
              precision={0}
              value={draft.priority}
              onChange={(v) => set({ priority: v ?? 0 })}
              data-testid="jump-priority"
            />
          </Form.Item>
          <Form.Item label={t('jumps.enabled', '启用')}>
            <Switch checked={draft.enabled} onChange={(enabled) => set({ enabled })} />
          </Form.Item>
        </Space>
        <Form.Item
          label={t('jumps.name', '筛选名称')}
          required
          validateStatus={problem?.field === 'name' && !draft.name.trim() ? 'error' : undefined}
        >
          <Input
            value={draft.name}
            maxLength={25}
            onChange={(e) => set({ name: e.target.value })}
            data-testid="jump-name"
          />
        </Form.Item>
        <Form.Item label={t('jumps.conditions', '转发条件（全部满足）')}>
          {draft.conditions.map((condition, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: condition rows have no identity of their own; they are edited by position
            <div className="dc-cond-row" key={`c${index}`} data-testid={`jump-condition-${index}`}>
              <Select<string>
                style={{ width: 160 }}
                placeholder={t('jumps.field', '字段')}
                value={condition.field || undefined}
                onChange={(field) => setCondition(index, { field })}
                options={item.fields.map((f) => ({ value: f.key, label: f.name }))}
              />
              <Select<JumpOperator>
                style={{ width: 130 }}
                value={condition.op}
                onChange={(op) =>
                  setCondition(index, { op, ...(NO_VALUE.includes(op) ? { value: undefined } : {}) })
                }
                options={JUMP_OPERATORS.map((op) => ({ value: op, label: t(`op.${op}`, op) }))}
              />
              {!NO_VALUE.includes(condition.op) && (
                <Input
                  style={{ width: 160 }}
                  placeholder={t('jumps.value', '值')}
                  value={condition.value == null ? '' : String(condition.value)}
                  onChange={(e) => setCondition(index, { value: e.target.value })}
                />
              )}
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('common.delete', '删除')}
                onClick={() => set({ conditions: draft.conditions.filter((_, i) => i !== index) })}
              />
            </div>
          ))}
          <Button
            type="dashed"
            size="small"
            icon={<PlusOutlined />}
            disabled={item.fields.length === 0}
            onClick={() => set({ conditions: [...draft.conditions, { field: '', op: 'eq', value: '' }] })}
            data-testid="jump-add-condition"
          >
            {t('jumps.addCondition', '添加条件')}
          </Button>
          {draft.conditions.length === 0 && (
            <Typography.Paragraph type="secondary" className="dc-gap-top">
              {t('jumps.noConditions', '没有条件时，每条新记录都会转发。')}
            </Typography.Paragraph>
          )}
        </Form.Item>
        <Form.Item
          label={t('jumps.target', '目标数据项')}
          required
          validateStatus={problem?.field === 'targetItemId' ? 'error' : undefined}
          help={problem?.field === 'targetItemId' ? problem.text : undefined}
        >
          <ItemPicker
            value={draft.targetItemId}
            onChange={(v) => set({ targetItemId: typeof v === 'number' ? v : null, mapping: [] })}
            testId="jump-target"
            status={problem?.field === 'targetItemId' ? 'error' : undefined}
          />
        </Form.Item>
        {targetFields.length > 0 && (
          <Form.Item label={t('jumps.mapping', '字段映射（目标字段 ← 来源）')}>
            {targetFields.map((field) => {
              const current = draft.mapping.find((m) => m.to === field.key);
              const mode = current ? (current.from != null ? 'field' : 'value') : 'none';
              return (
                <div className="dc-cond-row" key={field.key}>
                  <Typography.Text style={{ width: 140 }} ellipsis>
                    {field.name}
                  </Typography.Text>
                  <Select
                    style={{ width: 130 }}
                    value={mode}
                    onChange={(next: string) =>
                      setMapping(
                        field.key,
                        next === 'none'
                          ? null
                          : next === 'field'
                            ? { from: item.fields[0]?.key ?? '' }
                            : { value: '' },
                      )
                    }
                    options={[
                      { value: 'none', label: t('jumps.mapNone', '不填') },
                      { value: 'field', label: t('jumps.mapField', '来源字段') },
                      { value: 'value', label: t('jumps.mapValue', '固定值') },
                    ]}
                  />
                  {mode === 'field' && (
                    <Select<string>
                      style={{ width: 160 }}
                      value={current?.from}
                      onChange={(from) => setMapping(field.key, { from })}
                      options={item.fields.map((f) => ({ value: f.key, label: f.name }))}
                    />
                  )}
                  {mode === 'value' && (
                    <Input
                      style={{ width: 160 }}
                      value={current?.value == null ? '' : String(current.value)}
                      onChange={(e) => setMapping(field.key, { value: e.target.value })}
                    />
                  )}
                </div>
              );
            })}
          </Form.Item>
        )}
      </Form>
    </Drawer>
  );
}
