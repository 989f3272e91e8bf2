import { ENERGY_DATA_KIND_INFO, type EnergyDataKind, type EnergyPeriodType } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Form, Input, InputNumber, Modal, Radio, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { type EnergyRecord, type EnergySite, energyApi, energyKeys } from '../api';
import { companyToday, DAY, placeFieldError } from '../model';

interface Values {
  siteId?: number;
  periodType: EnergyPeriodType;
  periodOn?: Dayjs;
  quantity?: number;
  remark?: string;
}

const FIELDS = ['siteId', 'periodType', 'periodOn', 'quantity', 'remark'] as const;

/**
 * A record of the page's kind by hand (`editing` null) or changed: the site, a day or a month,
 * the quantity in the kind's unit, a remark. Days after today are not offered; a refusal of
 * the server shows beside the field it names.
 */
export function RecordModal({
  kind,
  open,
  editing,
  sites,
  onSites,
  onClose,
}: {
  kind: EnergyDataKind;
  open: boolean;
  editing: EnergyRecord | null;
  sites: EnergySite[];
  /** open the sites (there are none yet) */
  onSites: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('energy');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const unit = ENERGY_DATA_KIND_INFO[kind].unit;
  const periodType = Form.useWatch('periodType', form) ?? 'month';
  const today = companyToday();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing)
      form.setFieldsValue({
        siteId: editing.siteId,
        periodType: editing.periodType,
        periodOn: dayjs(editing.periodOn),
        quantity: editing.quantity,
        remark: editing.remark,
      });
    else
      form.setFieldsValue({
        periodType: 'month',
        periodOn: dayjs(today).startOf('month'),
        ...(sites.length === 1 ? { siteId: sites[0]!.id } : {}),
      });
  }, [open, editing, form, sites, today]);

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await energyApi.saveRecord(kind, {
        ...(editing ? { id: editing.id } : {}),
        siteId: values.siteId!,
        periodType: values.periodType,
        periodOn:
          values.periodType === 'month' ? values.periodOn!.format('YYYY-MM') : values.periodOn!.format(DAY),
        quantity: values.quantity!,
        remark: values.remark?.trim() ?? '',
      });
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: energyKeys.all });
      onClose();
    } catch (error) {
      // the http client showed the message; a field's refusal shows beside it too
      placeFieldError(form, error, FIELDS);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={editing ? t('form.edit') : t('form.add')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={save}
      onCancel={onClose}
      width={560}
      forceRender
      okButtonProps={{ 'data-testid': 'energy-form-save' } as Record<`data-${string}`, string>}
    >
      <Form form={form} layout="vertical" data-testid="energy-form">
        <Form.Item
          name="siteId"
          label={t('fields.site')}
          rules={[{ required: true, message: t('rules.site') }]}
          extra={
            sites.length === 0 ? (
              <span>
                {t('form.noSites')}{' '}
                <Button type="link" size="small" className="energy-inline-link" onClick={onSites}>
                  {t('sites.open')}
                </Button>
              </span>
            ) : undefined
          }
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            options={sites.map((s) => ({ value: s.id, label: s.name }))}
            placeholder={t('form.sitePlaceholder')}
            notFoundContent={t('form.noSites')}
            data-testid="energy-form-site"
          />
        </Form.Item>
        <div className="energy-form-grid">
          <Form.Item name="periodType" label={t('fields.periodType')}>
            <Radio.Group
              optionType="button"
              options={[
                { value: 'month', label: t('periodType.month') },
                { value: 'day', label: t('periodType.day') },
              ]}
              data-testid="energy-form-period-type"
            />
          </Form.Item>
          <Form.Item
            name="periodOn"
            label={t('fields.period')}
            rules={[{ required: true, message: t('rules.period') }]}
          >
            <DatePicker
              className="energy-full"
              picker={periodType === 'month' ? 'month' : 'date'}
              disabledDate={(d) => d.isAfter(dayjs(today), periodType === 'month' ? 'month' : 'day')}
              data-testid="energy-form-period"
            />
          </Form.Item>
        </div>
        <Form.Item
          name="quantity"
          label={`${t('fields.quantity')} (${unit})`}
          rules={[
            { required: true, message: t('rules.quantity') },
            { type: 'number', min: Number.MIN_VALUE, max: 1e9, message: t('rules.quantity') },
          ]}
        >
          <InputNumber
            className="energy-full"
            min={0}
            max={1e9}
            suffix={unit}
            data-testid="energy-form-quantity"
          />
        </Form.Item>
        <Form.Item name="remark" label={t('fields.remark')} rules={[{ max: 200 }]}>
          <Input.TextArea rows={2} maxLength={200} showCount data-testid="energy-form-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
