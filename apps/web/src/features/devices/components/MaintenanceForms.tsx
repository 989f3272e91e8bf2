/**
 * The maintenance dialogs: a record of work done, a plan that comes due every N days, and a
 * plan's "done" (a record of the plan's work; the next due date moves to that day plus the
 * interval). The server's limits: description 500 characters, performed by 50, title 50, note
 * 200, cost 0 to 99,999,999.99 with two decimals, interval 1 to 3650 days.
 */
import { MAINTENANCE_KINDS, type MaintenanceKind, PLAN_INTERVAL_MAX_DAYS } from '@platform/domain';
import { App, DatePicker, Form, Input, InputNumber, Modal, Select, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickerNow } from '../../../shared/time';
import { validated } from '../../../shared/validated';
import {
  type DeviceOption,
  deviceApi,
  type MaintenancePlan,
  type MaintenanceRecord,
  useMaintenanceDevices,
  useMembers,
} from '../api';
import { showFieldError } from '../form';

export const COST_MAX = 99_999_999.99;
const DAY = 'YYYY-MM-DD';

/** today in the company's zone, as a picker value */
export const companyToday = (): Dayjs => pickerNow().startOf('day');

export function DeviceSelect({
  value,
  onChange,
  disabled,
  allowClear,
  testId,
  className,
  placeholder,
  writableOnly = false,
}: {
  value?: number;
  onChange?: (id: number | undefined) => void;
  /** devices the caller may only read are offered but cannot be chosen (adding maintenance to them is refused) */
  writableOnly?: boolean;
  disabled?: boolean;
  allowClear?: boolean;
  testId?: string;
  className?: string;
  placeholder?: string;
}) {
  const { t } = useTranslation('devices');
  const devices = useMaintenanceDevices();
  return (
    <Select<number>
      showSearch
      allowClear={allowClear}
      className={className}
      value={value}
      onChange={onChange}
      disabled={disabled}
      loading={devices.isLoading}
      placeholder={placeholder ?? t('mnt.pickDevice', '选择设备')}
      optionFilterProp="label"
      options={(devices.data ?? []).map((d: DeviceOption) => {
        const readOnly = writableOnly && d.level < 2;
        return {
          value: d.id,
          label: readOnly
            ? `${d.name} (${d.serialNumber}) · ${t('mnt.readOnlyDevice', '只读')}`
            : `${d.name} (${d.serialNumber})`,
          disabled: readOnly,
        };
      })}
      data-testid={testId}
    />
  );
}

export function KindSelect(props: {
  value?: MaintenanceKind;
  onChange?: (kind: MaintenanceKind | undefined) => void;
  allowClear?: boolean;
  className?: string;
  placeholder?: string;
  testId?: string;
}) {
  const { t } = useTranslation('devices');
  return (
    <Select<MaintenanceKind>
      value={props.value}
      onChange={props.onChange}
      allowClear={props.allowClear}
      className={props.className}
      placeholder={props.placeholder}
      options={MAINTENANCE_KINDS.map((k) => ({ value: k, label: t(`mntKind.${k}`, k) }))}
      data-testid={props.testId}
    />
  );
}

interface RecordValues {
  deviceId?: number;
  date: Dayjs;
  kind: MaintenanceKind;
  description: string;
  performedBy?: string;
  cost?: number | null;
}

/** `record` null: a new record (of `deviceId` when given); undefined: closed. */
export function RecordModal({
  record,
  onClose,
  onSaved,
}: {
  record: MaintenanceRecord | null | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const [form] = Form.useForm<RecordValues>();
  const [saving, setSaving] = useState(false);
  const open = record !== undefined;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (record)
      form.setFieldsValue({
        deviceId: record.deviceId,
        date: dayjs(record.date, DAY),
        kind: record.kind,
        description: record.description,
        performedBy: record.performedBy,
        cost: record.cost,
      });
    else form.setFieldsValue({ date: companyToday(), kind: 'inspection' });
  }, [open, record, form]);

  const submit = async () => {
    const values = await validated(form);
    if (!values) return;
    const body = {
      date: values.date.format(DAY),
      kind: values.kind,
      description: values.description.trim(),
      performedBy: (values.performedBy ?? '').trim(),
      cost: values.cost ?? null,
    };
    setSaving(true);
    try {
      const envelope = record
        ? await deviceApi.updateRecord({ id: record.id, ...body })
        : await deviceApi.createRecord({ deviceId: values.deviceId!, ...body });
      message.success(envelope.message);
      onSaved();
      onClose();
    } catch (error) {
      showFieldError(form, error, ['deviceId', 'date', 'kind', 'description', 'performedBy', 'cost']);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={record ? t('mnt.editRecord', '编辑维护记录') : t('mnt.newRecord', '新增维护记录')}
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'record-ok' } as never}
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="deviceId"
          label={t('mnt.device', '设备')}
          rules={[{ required: true, message: t('mnt.pickDevice', '选择设备') }]}
        >
          <DeviceSelect disabled={record != null} writableOnly testId="record-device" />
        </Form.Item>
        <Form.Item
          name="date"
          label={t('mnt.date', '维护日期')}
          rules={[{ required: true, message: t('mnt.dateRequired', '请选择日期') }]}
        >
          <DatePicker style={{ width: '100%' }} data-testid="record-date" />
        </Form.Item>
        <Form.Item name="kind" label={t('mnt.kind', '类型')} rules={[{ required: true }]}>
          <KindSelect testId="record-kind" />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('mnt.description', '工作内容')}
          rules={[
            { required: true, whitespace: true, message: t('mnt.descriptionRequired', '请填写工作内容') },
            { max: 500, message: t('mnt.tooLong', '不能超过 {{n}} 个字符', { n: 500 }) },
          ]}
        >
          <Input.TextArea
            autoSize={{ minRows: 3, maxRows: 6 }}
            showCount
            maxLength={500}
            data-testid="record-description"
          />
        </Form.Item>
        <Form.Item
          name="performedBy"
          label={t('mnt.performedBy', '执行人')}
          rules={[{ max: 50, message: t('mnt.tooLong', '不能超过 {{n}} 个字符', { n: 50 }) }]}
        >
          <Input maxLength={50} data-testid="record-performed-by" />
        </Form.Item>
        <Form.Item name="cost" label={t('mnt.cost', '费用（元）')}>
          <InputNumber
            min={0}
            max={COST_MAX}
            precision={2}
            style={{ width: '100%' }}
            data-testid="record-cost"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface PlanValues {
  deviceId?: number;
  title: string;
  intervalDays: number;
  nextDue: Dayjs;
  assigneeId?: number | null;
  note?: string;
}

export function PlanModal({
  plan,
  onClose,
  onSaved,
}: {
  plan: MaintenancePlan | null | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const [form] = Form.useForm<PlanValues>();
  const [saving, setSaving] = useState(false);
  const open = plan !== undefined;
  const members = useMembers(open);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (plan)
      form.setFieldsValue({
        deviceId: plan.deviceId,
        title: plan.title,
        intervalDays: plan.intervalDays,
        nextDue: dayjs(plan.nextDue, DAY),
        assigneeId: plan.assignee?.id ?? null,
        note: plan.note,
      });
    else form.setFieldsValue({ intervalDays: 30, nextDue: companyToday().add(30, 'day') });
  }, [open, plan, form]);

  const submit = async () => {
    const values = await validated(form);
    if (!values) return;
    const body = {
      title: values.title.trim(),
      intervalDays: values.intervalDays,
      nextDue: values.nextDue.format(DAY),
      assigneeId: values.assigneeId ?? null,
      note: (values.note ?? '').trim(),
    };
    setSaving(true);
    try {
      const envelope = plan
        ? await deviceApi.updatePlan({ id: plan.id, ...body })
        : await deviceApi.createPlan({ deviceId: values.deviceId!, ...body });
      message.success(envelope.message);
      onSaved();
      onClose();
    } catch (error) {
      showFieldError(form, error, ['deviceId', 'title', 'intervalDays', 'nextDue', 'assigneeId', 'note']);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={plan ? t('mnt.editPlan', '编辑维护计划') : t('mnt.newPlan', '新增维护计划')}
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'plan-ok' } as never}
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="deviceId"
          label={t('mnt.device', '设备')}
          rules={[{ required: true, message: t('mnt.pickDevice', '选择设备') }]}
        >
          <DeviceSelect disabled={plan != null} writableOnly testId="plan-device" />
        </Form.Item>
        <Form.Item
          name="title"
          label={t('mnt.title', '计划名称')}
          rules={[
            { required: true, whitespace: true, message: t('mnt.titleRequired', '请填写计划名称') },
            { max: 50, message: t('mnt.tooLong', '不能超过 {{n}} 个字符', { n: 50 }) },
          ]}
        >
          <Input maxLength={50} data-testid="plan-title" />
        </Form.Item>
        <Form.Item
          name="intervalDays"
          label={t('mnt.interval', '周期（天）')}
          rules={[{ required: true, message: t('mnt.intervalRequired', '请填写周期') }]}
        >
          <InputNumber
            min={1}
            max={PLAN_INTERVAL_MAX_DAYS}
            precision={0}
            style={{ width: '100%' }}
            data-testid="plan-interval"
          />
        </Form.Item>
        <Form.Item
          name="nextDue"
          label={t('mnt.nextDue', '下次到期')}
          rules={[{ required: true, message: t('mnt.dateRequired', '请选择日期') }]}
        >
          <DatePicker style={{ width: '100%' }} data-testid="plan-next-due" />
        </Form.Item>
        <Form.Item name="assigneeId" label={t('mnt.assignee', '负责人')}>
          <Select<number>
            allowClear
            showSearch
            optionFilterProp="label"
            loading={members.isLoading}
            options={(members.data?.list ?? []).map((m) => ({
              value: m.userId,
              label: `${m.userName} (${m.phone})`,
            }))}
            data-testid="plan-assignee"
          />
        </Form.Item>
        <Form.Item
          name="note"
          label={t('mnt.note', '备注')}
          rules={[{ max: 200, message: t('mnt.tooLong', '不能超过 {{n}} 个字符', { n: 200 }) }]}
        >
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={200} data-testid="plan-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface DoneValues {
  doneOn: Dayjs;
  kind: MaintenanceKind;
  description?: string;
  performedBy?: string;
  cost?: number | null;
}

export function DoneModal({
  plan,
  onClose,
  onSaved,
}: {
  plan: MaintenancePlan | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const [form] = Form.useForm<DoneValues>();
  const [saving, setSaving] = useState(false);
  const doneOn = Form.useWatch('doneOn', form);

  useEffect(() => {
    if (plan) {
      form.resetFields();
      form.setFieldsValue({ doneOn: companyToday(), kind: 'inspection' });
    }
  }, [plan, form]);

  const submit = async () => {
    if (!plan) return;
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await deviceApi.planDone({
        id: plan.id,
        doneOn: values.doneOn.format(DAY),
        kind: values.kind,
        description: values.description?.trim() || undefined,
        performedBy: values.performedBy?.trim() || undefined,
        cost: values.cost ?? null,
      });
      message.success(t('mnt.doneSaved', '已记录，下次到期：{{date}}', { date: envelope.data.nextDue }));
      onSaved();
      onClose();
    } catch (error) {
      showFieldError(form, error, ['doneOn', 'kind', 'description', 'performedBy', 'cost']);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={plan != null}
      title={t('mnt.doneTitle', '完成维护：{{title}}', { title: plan?.title ?? '' })}
      okText={t('mnt.doneOk', '记录完成')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'done-ok' } as never}
    >
      <Typography.Paragraph type="secondary">
        {t('mnt.doneIntro', '将为“{{device}}”记录一次维护，下次到期日将改为完成日期加 {{n}} 天。', {
          device: plan?.deviceName ?? '',
          n: plan?.intervalDays ?? 0,
        })}
      </Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item
          name="doneOn"
          label={t('mnt.doneOn', '完成日期')}
          rules={[{ required: true, message: t('mnt.dateRequired', '请选择日期') }]}
          extra={
            doneOn && plan ? (
              <span data-testid="done-next-due">
                {t('mnt.nextDueWillBe', '下次到期：{{date}}', {
                  date: doneOn.add(plan.intervalDays, 'day').format(DAY),
                })}
              </span>
            ) : null
          }
        >
          <DatePicker style={{ width: '100%' }} data-testid="done-date" />
        </Form.Item>
        <Form.Item name="kind" label={t('mnt.kind', '类型')} rules={[{ required: true }]}>
          <KindSelect testId="done-kind" />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('mnt.description', '工作内容')}
          rules={[{ max: 500, message: t('mnt.tooLong', '不能超过 {{n}} 个字符', { n: 500 }) }]}
        >
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 5 }}
            maxLength={500}
            data-testid="done-description"
          />
        </Form.Item>
        <Form.Item
          name="performedBy"
          label={t('mnt.performedBy', '执行人')}
          rules={[{ max: 50, message: t('mnt.tooLong', '不能超过 {{n}} 个字符', { n: 50 }) }]}
        >
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="cost" label={t('mnt.cost', '费用（元）')}>
          <InputNumber min={0} max={COST_MAX} precision={2} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
