import { NUMERIC_FIELD_TYPES } from '@platform/domain';
import { Checkbox, Form, Input, InputNumber, Modal, Radio, Select, Space, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../app/store/session';
import { useCabinItems, useDataItem } from '../../datarecords/api';
import { useGroups, useMembers } from '../../userManagement/api';
import {
  type Condition,
  type RuleInput,
  type RuleRow,
  useDeviceOptions,
  useDevicePointOptions,
} from '../api';

/** the codes of the device pages: who holds one may pick a device point as the rule's source */
const DEVICE_CODES = ['dm_list', 'cd_device'];

const CONDITIONS: Condition[] = ['above', 'below', 'equal', 'outside', 'rate'];

interface FormValues {
  name: string;
  enabled: boolean;
  /** what the rule watches: an item's field, or a device's point (stored as the field it feeds) */
  source: 'item' | 'device';
  itemId?: number;
  fieldKey?: string;
  deviceId?: number;
  /** `itemId:fieldKey` of the device point */
  pointKey?: string;
  condition: Condition;
  l1?: number | null;
  l1h?: number | null;
  l2?: number | null;
  l2h?: number | null;
  l3?: number | null;
  l3h?: number | null;
  durationS: number;
  clear?: number | null;
  clearHigh?: number | null;
  userIds: number[];
  groupIds: number[];
  channels: Array<'app' | 'email' | 'sms'>;
}

function toInput(v: FormValues): RuleInput {
  const outside = v.condition === 'outside';
  const levels = ([1, 2, 3] as const).flatMap((level) => {
    const threshold = v[`l${level}` as 'l1'];
    if (threshold == null) return [];
    return [{ level, threshold, ...(outside ? { high: v[`l${level}h` as 'l1h'] ?? null } : {}) }];
  });
  const point = v.source === 'device' ? /^(\d+):(.+)$/.exec(v.pointKey ?? '') : null;
  return {
    name: v.name,
    enabled: v.enabled,
    itemId: point ? Number(point[1]) : (v.itemId ?? 0),
    fieldKey: point ? point[2]! : (v.fieldKey ?? ''),
    deviceId: v.source === 'device' ? (v.deviceId ?? null) : null,
    condition: v.condition,
    levels,
    durationS: v.durationS ?? 0,
    clear: v.clear == null ? null : { threshold: v.clear, ...(outside ? { high: v.clearHigh ?? null } : {}) },
    recipients: { userIds: v.userIds ?? [], groupIds: v.groupIds ?? [] },
    channels: v.channels,
  };
}

function fromRule(rule: RuleRow | null): Partial<FormValues> {
  if (!rule)
    return {
      enabled: true,
      source: 'item',
      condition: 'above',
      durationS: 0,
      channels: ['app'],
      userIds: [],
      groupIds: [],
    };
  const at = (level: number) => rule.levels.find((l) => l.level === level);
  return {
    name: rule.name,
    enabled: rule.enabled,
    source: rule.deviceId ? 'device' : 'item',
    itemId: rule.itemId,
    fieldKey: rule.fieldKey,
    deviceId: rule.deviceId ?? undefined,
    pointKey: rule.deviceId ? `${rule.itemId}:${rule.fieldKey}` : undefined,
    condition: rule.condition,
    l1: at(1)?.threshold,
    l1h: at(1)?.high,
    l2: at(2)?.threshold,
    l2h: at(2)?.high,
    l3: at(3)?.threshold,
    l3h: at(3)?.high,
    durationS: rule.durationS,
    clear: rule.clear?.threshold,
    clearHigh: rule.clear?.high,
    userIds: rule.recipients.userIds,
    groupIds: rule.recipients.groupIds,
    channels: rule.channels,
  };
}

/** The rule form: item and numeric field, condition, three levels, duration, clear, recipients, channels. */
export function RuleForm(props: {
  open: boolean;
  rule: RuleRow | null;
  saving: boolean;
  onCancel: () => void;
  onSave: (input: RuleInput) => void;
}) {
  const { t } = useTranslation('alarms');
  const [form] = Form.useForm<FormValues>();
  const itemId = Form.useWatch('itemId', form);
  const condition = Form.useWatch('condition', form);
  const source = Form.useWatch('source', form) ?? 'item';
  const deviceId = Form.useWatch('deviceId', form);
  const { user } = useSession();
  const mayPickDevice = DEVICE_CODES.some((code) => user?.menuCode?.includes(code));
  const devices = useDeviceOptions(props.open && mayPickDevice && source === 'device');
  const points = useDevicePointOptions(source === 'device' ? deviceId : undefined);
  const items = useCabinItems(props.open);
  const item = useDataItem(itemId ?? 0);
  const [keyword] = useState('');
  const members = useMembers(keyword, props.open);
  const groups = useGroups({ pageNum: 1, pageSize: 100 }, '');
  useEffect(() => {
    if (props.open) {
      form.resetFields();
      form.setFieldsValue(fromRule(props.rule));
    }
  }, [props.open, props.rule, form]);
  const outside = condition === 'outside';
  const numericFields = (item.data?.fields ?? []).filter((f) => NUMERIC_FIELD_TYPES.includes(f.type));
  const level = (n: 1 | 2 | 3) => (
    <Form.Item label={t(`rule.level${n}`)} style={{ marginBottom: 8 }}>
      <Space>
        <Form.Item name={`l${n}`} noStyle>
          <InputNumber
            aria-label={t(`rule.level${n}`)}
            placeholder={outside ? t('rule.low') : t('rule.threshold')}
          />
        </Form.Item>
        {outside && (
          <Form.Item name={`l${n}h`} noStyle>
            <InputNumber placeholder={t('rule.high')} />
          </Form.Item>
        )}
      </Space>
    </Form.Item>
  );
  return (
    <Modal
      open={props.open}
      title={props.rule ? t('rule.edit') : t('rule.add')}
      onCancel={props.onCancel}
      onOk={() => form.validateFields().then((v) => props.onSave(toInput(v)))}
      confirmLoading={props.saving}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      destroyOnHidden
      width={640}
    >
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="name" label={t('fields.name')} rules={[{ required: true, max: 50 }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="enabled" label={t('fields.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        {mayPickDevice && (
          <Form.Item name="source" label={t('fields.source')}>
            <Radio.Group
              optionType="button"
              options={[
                { value: 'item', label: t('rule.sourceItem') },
                { value: 'device', label: t('rule.sourceDevice') },
              ]}
            />
          </Form.Item>
        )}
        {source === 'device' ? (
          <>
            <Form.Item name="deviceId" label={t('fields.device')} rules={[{ required: true }]}>
              <Select
                showSearch
                optionFilterProp="label"
                loading={devices.isLoading}
                options={(devices.data?.list ?? []).map((d) => ({
                  value: d.id,
                  label: `${d.name} (${d.serialNumber})`,
                }))}
                onChange={() => form.setFieldValue('pointKey', undefined)}
              />
            </Form.Item>
            <Form.Item
              name="pointKey"
              label={t('fields.point')}
              rules={[{ required: true }]}
              extra={t('rule.pointHint')}
            >
              <Select
                loading={points.isLoading}
                notFoundContent={deviceId ? t('rule.noPoints') : t('rule.pickDevice')}
                options={(points.data?.points ?? [])
                  .filter((p) => p.numeric)
                  .map((p) => ({
                    value: p.key,
                    label: `${p.fieldName}${p.unit ? ` (${p.unit})` : ''} · ${p.itemName}`,
                  }))}
              />
            </Form.Item>
          </>
        ) : (
          <>
            <Form.Item name="itemId" label={t('fields.item')} rules={[{ required: true }]}>
              <Select
                showSearch
                optionFilterProp="label"
                loading={items.isLoading}
                options={(items.data ?? []).map((n) => ({ value: n.refId ?? 0, label: n.name }))}
                onChange={() => form.setFieldValue('fieldKey', undefined)}
              />
            </Form.Item>
            <Form.Item name="fieldKey" label={t('fields.field')} rules={[{ required: true }]}>
              <Select options={numericFields.map((f) => ({ value: f.key, label: f.name }))} />
            </Form.Item>
          </>
        )}
        <Form.Item name="condition" label={t('fields.condition')} rules={[{ required: true }]}>
          <Select options={CONDITIONS.map((c) => ({ value: c, label: t(`condition.${c}`) }))} />
        </Form.Item>
        {level(1)}
        {level(2)}
        {level(3)}
        <Form.Item name="durationS" label={t('fields.durationS')}>
          <InputNumber min={0} max={86400} />
        </Form.Item>
        {condition !== 'equal' && (
          <Form.Item label={t('fields.clear')} extra={t('rule.clearHint')}>
            <Space>
              <Form.Item name="clear" noStyle>
                <InputNumber
                  aria-label={t('fields.clear')}
                  placeholder={outside ? t('rule.low') : t('rule.threshold')}
                />
              </Form.Item>
              {outside && (
                <Form.Item name="clearHigh" noStyle>
                  <InputNumber placeholder={t('rule.high')} />
                </Form.Item>
              )}
            </Space>
          </Form.Item>
        )}
        <Form.Item name="userIds" label={t('fields.users')}>
          <Select
            mode="multiple"
            optionFilterProp="label"
            options={(members.data?.list ?? []).map((m) => ({ value: m.userId, label: m.userName }))}
          />
        </Form.Item>
        <Form.Item name="groupIds" label={t('fields.groups')}>
          <Select
            mode="multiple"
            optionFilterProp="label"
            options={(groups.data?.list ?? []).map((g) => ({ value: g.id, label: g.name }))}
          />
        </Form.Item>
        <Form.Item name="channels" label={t('fields.channels')} rules={[{ required: true }]}>
          <Checkbox.Group
            options={(['app', 'email', 'sms'] as const).map((c) => ({ value: c, label: t(`channel.${c}`) }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
