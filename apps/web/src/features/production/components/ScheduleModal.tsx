import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, DatePicker, Form, Input, InputNumber, Modal, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { type OwnProduct, productionApi, productionKeys, type Schedule, useOwnProducts } from '../api';
import { companyToday, placeFieldError } from '../model';

interface Values {
  categoryId?: number;
  quantity?: number;
  line?: string;
  startOn?: Dayjs;
  endOn?: Dayjs;
  steps?: string[];
  notes?: string;
}

const FIELDS = ['categoryId', 'quantity', 'line', 'startOn', 'endOn', 'steps', 'notes'] as const;
const MAX_STEPS = 20;
const STEP_MAX_LENGTH = 30;
const DAY = 'YYYY-MM-DD';

/** The products the select offers: the company's own products, and the plan's own when it is not among them. */
function choicesOf(products: OwnProduct[], known: OwnProduct[], editing: Schedule | null) {
  const all = new Map<number, OwnProduct>();
  for (const p of [...products, ...known]) all.set(p.id, p);
  if (editing && !all.has(editing.categoryId))
    all.set(editing.categoryId, { id: editing.categoryId, name: editing.categoryName, model: editing.model });
  return [...all.values()].map((p) => ({ value: p.id, label: p.model ? `${p.name} · ${p.model}` : p.name }));
}

/**
 * Plan a production run (`editing` null) or change a plan not yet ended: the own product, the
 * quantity, the line, the days, the steps (the server's default steps when none are given)
 * and notes. A refusal shows beside the field it names.
 */
export function ScheduleModal({
  open,
  editing,
  known,
  onClose,
}: {
  open: boolean;
  editing: Schedule | null;
  /** products of the plans listed: what a person who may not list the inventory's categories can choose */
  known: OwnProduct[];
  onClose: () => void;
}) {
  const { t } = useTranslation('production');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const products = useOwnProducts(open);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing) {
      form.setFieldsValue({
        categoryId: editing.categoryId,
        quantity: editing.quantity,
        line: editing.line,
        startOn: dayjs(editing.startOn),
        endOn: dayjs(editing.endOn),
        steps: editing.steps,
        notes: editing.notes,
      });
    } else {
      const today = dayjs(companyToday());
      form.setFieldsValue({ startOn: today, endOn: today.add(6, 'day') });
    }
  }, [open, editing, form]);

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const steps = (values.steps ?? []).map((s) => s.trim()).filter(Boolean);
      const envelope = await productionApi.save({
        ...(editing ? { id: editing.id } : {}),
        categoryId: values.categoryId!,
        quantity: values.quantity!,
        line: values.line!.trim(),
        startOn: values.startOn!.format(DAY),
        endOn: values.endOn!.format(DAY),
        ...(steps.length ? { steps } : {}),
        notes: values.notes?.trim() ?? '',
      });
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: productionKeys.all });
      onClose();
    } catch (error) {
      // the http client showed the message; a field's refusal shows beside it too
      placeFieldError(form, error, FIELDS);
    } finally {
      setSaving(false);
    }
  };

  const startOn = Form.useWatch('startOn', form);

  return (
    <Modal
      open={open}
      title={editing ? t('form.edit', { number: editing.number }) : t('form.add')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={save}
      onCancel={onClose}
      width={640}
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="production-form">
        {products.isError ? (
          <Alert type="warning" showIcon className="production-alert" title={t('form.productsRefused')} />
        ) : null}
        <Form.Item
          name="categoryId"
          label={t('fields.product')}
          rules={[{ required: true, message: t('rules.product') }]}
          extra={editing && editing.recorded > 0 ? t('form.productFixed') : undefined}
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            loading={products.isFetching}
            disabled={Boolean(editing && editing.recorded > 0)}
            options={choicesOf(products.data ?? [], known, editing)}
            placeholder={t('form.productPlaceholder')}
            notFoundContent={t('form.noProducts')}
            data-testid="production-form-product"
          />
        </Form.Item>
        <div className="production-form-grid">
          <Form.Item
            name="quantity"
            label={t('fields.quantity')}
            rules={[{ required: true, message: t('rules.quantity') }]}
            extra={
              editing && editing.recorded > 0
                ? t('form.quantityAtLeast', { count: editing.recorded })
                : undefined
            }
          >
            <InputNumber
              min={Math.max(1, editing?.recorded ?? 0)}
              max={100_000}
              precision={0}
              style={{ width: '100%' }}
              data-testid="production-form-quantity"
            />
          </Form.Item>
          <Form.Item
            name="line"
            label={t('fields.line')}
            rules={[{ required: true, whitespace: true, message: t('rules.line') }]}
          >
            <Input
              maxLength={50}
              placeholder={t('form.linePlaceholder')}
              data-testid="production-form-line"
            />
          </Form.Item>
          <Form.Item
            name="startOn"
            label={t('fields.startOn')}
            rules={[{ required: true, message: t('rules.date') }]}
          >
            <DatePicker allowClear={false} style={{ width: '100%' }} data-testid="production-form-start" />
          </Form.Item>
          <Form.Item
            name="endOn"
            label={t('fields.endOn')}
            dependencies={['startOn']}
            rules={[
              { required: true, message: t('rules.date') },
              {
                validator: async (_rule, value: Dayjs | undefined) => {
                  if (value && startOn && value.isBefore(startOn, 'day'))
                    throw new Error(t('rules.endBeforeStart'));
                },
              },
            ]}
          >
            <DatePicker
              allowClear={false}
              style={{ width: '100%' }}
              disabledDate={(day) => Boolean(startOn && day.isBefore(startOn, 'day'))}
              data-testid="production-form-end"
            />
          </Form.Item>
        </div>
        <Form.Item
          name="steps"
          label={t('fields.steps')}
          extra={t('form.stepsHint')}
          rules={[
            {
              validator: async (_rule, value: string[] | undefined) => {
                const steps = value ?? [];
                if (steps.length > MAX_STEPS) throw new Error(t('rules.stepsMany', { max: MAX_STEPS }));
                if (steps.some((s) => s.trim().length > STEP_MAX_LENGTH))
                  throw new Error(t('rules.stepLong', { max: STEP_MAX_LENGTH }));
              },
            },
          ]}
        >
          <Select
            mode="tags"
            open={false}
            suffixIcon={null}
            tokenSeparators={[',', '，']}
            placeholder={t('form.stepsPlaceholder')}
            data-testid="production-form-steps"
          />
        </Form.Item>
        <Form.Item name="notes" label={t('fields.notes')}>
          <Input.TextArea
            maxLength={500}
            autoSize={{ minRows: 2, maxRows: 4 }}
            data-testid="production-form-notes"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
