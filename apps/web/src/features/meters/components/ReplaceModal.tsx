import { App, DatePicker, Form, Input, InputNumber, Modal, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPickerValue, pickerNow } from '../../../shared/time';
import { type Meter, meterApi } from '../api';
import { kWh } from '../format';

interface Values {
  at: Dayjs;
  oldFinal: number;
  newInitial: number;
  ctPrimary: number;
  ctSecondary: number;
  ptPrimary: number;
  ptSecondary: number;
  note?: string;
}

/**
 * Record a meter replacement: when (the company's wall time), the old register's final reading,
 * the new one's start reading and the new transformers. Asked once more before it is written,
 * since the energy of every later period counts from it.
 */
export function ReplaceModal({
  meter,
  open,
  onClose,
  onDone,
}: {
  meter: Meter;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('meters');
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const submit = (v: Values) =>
    modal.confirm({
      title: t('replace.confirmTitle', '确认记录换表？'),
      content: t(
        'replace.confirmText',
        '{{at}} 起，旧表按止码 {{oldFinal}} 结算，新表从 {{newInitial}} 开始计量。之后各期电量都按此计算。',
        { at: v.at.format('YYYY-MM-DD HH:mm'), oldFinal: v.oldFinal, newInitial: v.newInitial },
      ),
      okText: t('replace.ok', '记录换表'),
      cancelText: t('common.cancel', '取消'),
      okButtonProps: { 'data-testid': 'meter-replace-confirm' } as never,
      onOk: async () => {
        setSaving(true);
        try {
          const envelope = await meterApi.replace({
            id: meter.id,
            at: fromPickerValue(v.at),
            oldFinal: v.oldFinal,
            newInitial: v.newInitial,
            ctPrimary: v.ctPrimary,
            ctSecondary: v.ctSecondary,
            ptPrimary: v.ptPrimary,
            ptSecondary: v.ptSecondary,
            note: v.note?.trim() || undefined,
          });
          message.success(
            t('replace.done', '已记录换表，换表前后电量 {{kWh}}', { kWh: kWh(envelope.data.kWhAround) }),
          );
          form.resetFields();
          onDone();
        } catch {
          // the http client showed the error
        } finally {
          setSaving(false);
        }
      },
    });

  return (
    <Modal
      open={open}
      title={t('replace.title', '记录换表')}
      okText={t('replace.next', '下一步')}
      cancelText={t('common.cancel', '取消')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'meter-replace-ok' } as never}
    >
      <Typography.Paragraph type="secondary">
        {t('replace.hint', '按换表单填写。换表时刻的读数不计入，以这里的止码和起码为准。')}
      </Typography.Paragraph>
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{
          at: pickerNow(),
          ctPrimary: meter.ct.primary,
          ctSecondary: meter.ct.secondary,
          ptPrimary: meter.pt.primary,
          ptSecondary: meter.pt.secondary,
        }}
      >
        <Form.Item name="at" label={t('replace.at', '换表时间')} rules={[{ required: true }]}>
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" className="meter-number" />
        </Form.Item>
        <div className="meter-two">
          <Form.Item
            name="oldFinal"
            label={t('replace.oldFinal', '旧表止码')}
            rules={[{ required: true, message: t('replace.required', '请输入读数') }]}
          >
            <InputNumber min={0} className="meter-number" data-testid="meter-replace-old" />
          </Form.Item>
          <Form.Item
            name="newInitial"
            label={t('replace.newInitial', '新表起码')}
            rules={[{ required: true, message: t('replace.required', '请输入读数') }]}
          >
            <InputNumber min={0} className="meter-number" data-testid="meter-replace-new" />
          </Form.Item>
          {(['ctPrimary', 'ctSecondary', 'ptPrimary', 'ptSecondary'] as const).map((f) => (
            <Form.Item key={f} name={f} label={t(`fields.${f}`)} rules={[{ required: true }]}>
              <InputNumber min={0.000001} className="meter-number" />
            </Form.Item>
          ))}
        </div>
        <Form.Item name="note" label={t('log.note', '备注')}>
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
