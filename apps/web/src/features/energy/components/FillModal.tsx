import { ENERGY_DATA_KIND_INFO, type EnergyDataKind, type EnergyFillMode } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, DatePicker, Form, InputNumber, Modal, Radio, Select, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { type EnergySite, energyApi, energyKeys, type FillAnswer, useFillItems } from '../api';
import { companyToday, DAY } from '../model';

interface Values {
  siteId?: number;
  itemId?: number;
  field?: string;
  mode: EnergyFillMode;
  factor: number;
  range?: [Dayjs, Dayjs];
}

/** The factor a field's unit plainly takes into the kind's unit (kg → t), or null. */
function suggestedFactor(from: string, to: string): number | null {
  const a = from.trim().toLowerCase();
  const b = to.trim().toLowerCase();
  if (!a) return null;
  if (a === b || (a === 'm3' && b === 'm³')) return 1;
  if (a === 'kg' && b === 't') return 0.001;
  if ((a === 'l' || a === 'litre' || a === 'liter') && b === 'm³') return 0.001;
  return null;
}

const FORM_FIELDS = ['siteId', 'itemId', 'field', 'factor'] as const;

/**
 * Day records of the page's kind from a data item's number field: a site, the item (those the
 * caller may read), its field, the mode (a cumulative counter or per-period values), the unit
 * factor and the days. The server's answer (written, replaced, kept days with their reasons,
 * days without readings) shows in the dialog; the list and figures are read again.
 */
export function FillModal({
  kind,
  open,
  sites,
  onClose,
}: {
  kind: EnergyDataKind;
  open: boolean;
  sites: EnergySite[];
  onClose: () => void;
}) {
  const { t } = useTranslation('energy');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const items = useFillItems(open);
  const [running, setRunning] = useState(false);
  const [answer, setAnswer] = useState<FillAnswer | null>(null);
  const unit = ENERGY_DATA_KIND_INFO[kind].unit;
  const today = companyToday();
  const itemId = Form.useWatch('itemId', form);
  const mode = Form.useWatch('mode', form) ?? 'counter';
  const item = (items.data ?? []).find((i) => i.id === itemId);
  const fieldOptions = useMemo(
    () =>
      (item?.fields ?? []).map((f) => ({
        value: f.key,
        label: f.unit ? `${f.name} (${f.unit})` : f.name,
      })),
    [item],
  );

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setAnswer(null);
    form.setFieldsValue({
      mode: 'counter',
      factor: 1,
      range: [dayjs(today).startOf('month'), dayjs(today)],
      ...(sites.length === 1 ? { siteId: sites[0]!.id } : {}),
    });
  }, [open, form, sites, today]);

  const pickField = (key: string | undefined) => {
    const f = item?.fields.find((x) => x.key === key);
    const factor = f ? suggestedFactor(f.unit, unit) : null;
    if (factor !== null) form.setFieldsValue({ factor });
  };

  const run = async () => {
    const values = await validated(form);
    if (!values) return;
    setRunning(true);
    setAnswer(null);
    try {
      const envelope = await energyApi.fill(kind, {
        siteId: values.siteId!,
        itemId: values.itemId!,
        field: values.field!,
        mode: values.mode,
        from: values.range![0].format(DAY),
        to: values.range![1].format(DAY),
        factor: values.factor,
      });
      setAnswer(envelope.data);
      message.success(t('fill.done', { written: envelope.data.written, replaced: envelope.data.replaced }));
      await queryClient.invalidateQueries({ queryKey: energyKeys.all });
    } catch (error) {
      // the http client showed the message; a field's refusal shows beside it too
      const data = (error as { data?: { field?: unknown } } | null)?.data;
      const field = typeof data?.field === 'string' ? data.field : null;
      const name = field === 'from' || field === 'to' ? 'range' : field;
      if (name && ([...FORM_FIELDS, 'range'] as string[]).includes(name))
        form.setFields([
          { name: name as keyof Values, errors: [error instanceof Error ? error.message : ''] },
        ]);
    } finally {
      setRunning(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('fill.title')}
      okText={t('fill.run')}
      cancelText={t('fill.close')}
      confirmLoading={running}
      onOk={run}
      onCancel={onClose}
      width={640}
      forceRender
      okButtonProps={{ 'data-testid': 'energy-fill-run' } as Record<`data-${string}`, string>}
    >
      <Typography.Paragraph type="secondary" className="energy-fill-intro">
        {t('fill.intro')}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" data-testid="energy-fill-form">
        <div className="energy-form-grid">
          <Form.Item
            name="siteId"
            label={t('fields.site')}
            rules={[{ required: true, message: t('rules.site') }]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={sites.map((s) => ({ value: s.id, label: s.name }))}
              placeholder={t('form.sitePlaceholder')}
              notFoundContent={t('form.noSites')}
              data-testid="energy-fill-site"
            />
          </Form.Item>
          <Form.Item
            name="range"
            label={t('fill.days')}
            rules={[{ required: true, message: t('rules.period') }]}
          >
            <DatePicker.RangePicker
              className="energy-full"
              allowClear={false}
              disabledDate={(d) => d.isAfter(dayjs(today), 'day')}
              data-testid="energy-fill-range"
            />
          </Form.Item>
        </div>
        <div className="energy-form-grid">
          <Form.Item
            name="itemId"
            label={t('fill.item')}
            rules={[{ required: true, message: t('fill.itemRule') }]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              loading={items.isFetching}
              options={(items.data ?? []).map((i) => ({ value: i.id, label: i.name }))}
              placeholder={t('fill.itemPlaceholder')}
              notFoundContent={t('fill.noItems')}
              onChange={() => form.setFieldsValue({ field: undefined })}
              data-testid="energy-fill-item"
            />
          </Form.Item>
          <Form.Item
            name="field"
            label={t('fill.field')}
            rules={[{ required: true, message: t('fill.fieldRule') }]}
          >
            <Select
              options={fieldOptions}
              disabled={!item}
              placeholder={t('fill.fieldPlaceholder')}
              onChange={pickField}
              data-testid="energy-fill-field"
            />
          </Form.Item>
        </div>
        <Form.Item name="mode" label={t('fill.mode')} extra={t(`fill.modeHint.${mode}`)}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'counter', label: t('fill.modes.counter') },
              { value: 'sum', label: t('fill.modes.sum') },
            ]}
            data-testid="energy-fill-mode"
          />
        </Form.Item>
        <Form.Item
          name="factor"
          label={t('fill.factor')}
          extra={t('fill.factorHint', { unit })}
          rules={[
            { required: true, message: t('rules.factor') },
            { type: 'number', min: Number.MIN_VALUE, message: t('rules.factor') },
          ]}
        >
          <InputNumber className="energy-fill-factor" min={0} data-testid="energy-fill-factor" />
        </Form.Item>
      </Form>
      {answer ? <FillResult answer={answer} /> : null}
    </Modal>
  );
}

function FillResult({ answer }: { answer: FillAnswer }) {
  const { t } = useTranslation('energy');
  return (
    <div className="energy-fill-result" data-testid="energy-fill-result">
      <Alert
        type={answer.written + answer.replaced > 0 ? 'success' : 'info'}
        showIcon
        title={t('fill.summary', {
          written: answer.written,
          replaced: answer.replaced,
          skipped: answer.skipped.length,
          empty: answer.empty,
        })}
      />
      {answer.skipped.length > 0 ? (
        <Table
          className="energy-fill-skipped"
          size="small"
          rowKey="periodOn"
          pagination={answer.skipped.length > 8 ? { pageSize: 8, size: 'small' } : false}
          dataSource={answer.skipped}
          columns={[
            { title: t('fill.skippedDay'), dataIndex: 'periodOn', width: 130 },
            {
              title: t('fill.skippedReason'),
              dataIndex: 'reason',
              render: (reason: string) => t(`fill.reasons.${reason}`),
            },
          ]}
          data-testid="energy-fill-skipped"
        />
      ) : null}
    </div>
  );
}
