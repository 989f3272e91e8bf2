import { App, Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { gasApi, type Product } from '../api';
import {
  type AmountUnit,
  formatAmount,
  formTarget,
  placeFieldError,
  toFraction,
  toUnit,
  unitFor,
} from '../model';
import { AmountRows, NEW_AMOUNT_ROW } from './AmountRows';
import { ComponentSelect } from './ComponentSelect';
import { CONDITION_DEFAULTS, ConditionFields, useConditionLabels } from './ConditionFields';

interface Row {
  component?: string;
  amount?: number | null;
  unit: AmountUnit;
}

interface Values {
  name: string;
  code?: string;
  balance?: string;
  components?: Row[];
  volumeL: number;
  pressureMPa: number;
  temperatureC: number;
  z: number;
  notes?: string;
}

function fractionOf(row: Row | undefined): number {
  return row && typeof row.amount === 'number' ? toFraction(row.amount, row.unit ?? 'percent') : 0;
}

/** Add a mixture recipe (`editing` null) or edit one: its components (the balance gas is the rest) and cylinder. */
export function ProductModal({
  open,
  editing,
  onClose,
  onDone,
}: {
  open: boolean;
  editing: Product | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('gas');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const balance = Form.useWatch('balance', form);
  const rows = Form.useWatch('components', form) ?? [];
  const conditionLabels = useConditionLabels();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing) {
      form.setFieldsValue({
        name: editing.name,
        code: editing.code,
        balance: editing.balance,
        components: editing.components.map((c) => {
          const unit = unitFor(c.fraction);
          return { component: c.component, amount: toUnit(c.fraction, unit), unit };
        }),
        volumeL: editing.volumeL,
        pressureMPa: editing.pressureMPa,
        temperatureC: editing.temperatureC,
        z: editing.z,
        notes: editing.notes,
      });
    }
  }, [open, editing, form]);

  const labels: Record<string, string> = {
    name: t('fields.name', '名称'),
    code: t('fields.code', '编号'),
    balance: t('fields.balance', '平衡气'),
    component: t('fields.component', '组分'),
    amount: t('fields.amount', '含量'),
    fraction: t('fields.amount', '含量'),
    ...conditionLabels,
  };

  const total = rows.reduce((sum, row) => sum + fractionOf(row), 0);
  const over = total >= 1;
  const listed = (skip: number) =>
    rows.flatMap((r, k) => (k !== skip && typeof r?.component === 'string' ? [r.component] : []));
  const taken = (index: number) => (balance ? [balance, ...listed(index)] : listed(index));

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await gasApi.saveProduct({
        ...(editing ? { id: editing.id } : {}),
        name: values.name.trim(),
        code: values.code?.trim() ?? '',
        balance: values.balance ?? '',
        components: (values.components ?? []).map((row) => ({
          component: row.component ?? '',
          fraction: fractionOf(row),
        })),
        volumeL: values.volumeL,
        pressureMPa: values.pressureMPa,
        temperatureC: values.temperatureC,
        z: values.z,
        notes: values.notes?.trim() ?? '',
      });
      message.success(envelope.message);
      onDone();
      onClose();
    } catch (error) {
      placeFieldError(
        form,
        error,
        formTarget(
          ['name', 'code', 'balance', 'volumeL', 'pressureMPa', 'temperatureC', 'z', 'notes'],
          { components: { component: 'component', fraction: 'amount' } },
          (n) => labels[n],
        ),
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={editing ? t('product.edit', '编辑产品') : t('product.add', '新增产品')}
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={save}
      onCancel={onClose}
      width={760}
      forceRender
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ ...CONDITION_DEFAULTS, components: [NEW_AMOUNT_ROW] }}
        data-testid="gas-product-form"
      >
        <div className="gas-form-grid">
          <Form.Item
            name="name"
            label={labels.name}
            rules={[{ required: true, whitespace: true, message: t('rules.nameRequired', '请输入名称') }]}
          >
            <Input
              maxLength={50}
              placeholder={t('product.namePlaceholder', '如：10 % CO2 in N2')}
              data-testid="gas-product-name"
            />
          </Form.Item>
          <Form.Item name="code" label={labels.code}>
            <Input maxLength={50} data-testid="gas-product-code" />
          </Form.Item>
        </div>
        <AmountRows
          testPrefix="gas-product"
          title={t('product.components', '组分')}
          exclude={taken}
          addTestId="gas-product-add-component"
        />
        <div className="gas-form-grid">
          <Form.Item
            name="balance"
            label={labels.balance}
            tooltip={t('product.balanceHint', '平衡气为其余部分，不必填写含量')}
            rules={[{ required: true, message: t('rules.balanceRequired', '请选择平衡气') }]}
          >
            <ComponentSelect exclude={listed(-1)} data-testid="gas-product-balance" />
          </Form.Item>
          <div className={`gas-balance-note${over ? ' gas-over' : ''}`} data-testid="gas-product-total">
            {t('product.total', '组分合计 {{total}}', { total: formatAmount(total) })}
            {over
              ? null
              : ` · ${t('product.rest', '平衡气 {{balance}} 约 {{rest}}', {
                  balance: balance ?? '—',
                  rest: formatAmount(1 - total),
                })}`}
          </div>
        </div>
        <ConditionFields testPrefix="gas-product" />
        <Form.Item name="notes" label={t('fields.notes', '备注')}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
