import { App, DatePicker, Form, Input, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { gasApi, type ReferenceMaterial } from '../api';
import { type AmountUnit, formTarget, placeFieldError, toFraction, toUnit, unitFor } from '../model';
import { AmountRows, NEW_AMOUNT_ROW } from './AmountRows';
import { ComponentSelect } from './ComponentSelect';

interface Row {
  component?: string;
  amount?: number | null;
  expanded?: number | null;
  unit: AmountUnit;
}

interface Values {
  name: string;
  certificateNo: string;
  issuer?: string;
  balance?: string;
  components?: Row[];
  expiresOn?: Dayjs;
  notes?: string;
}

/** Add a certified reference material (`editing` null) or edit one: its certified values with U (k = 2). */
export function ReferenceModal({
  open,
  editing,
  onClose,
  onDone,
}: {
  open: boolean;
  editing: ReferenceMaterial | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('gas');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const balance = Form.useWatch('balance', form);
  const rows = Form.useWatch('components', form) ?? [];

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing) {
      form.setFieldsValue({
        name: editing.name,
        certificateNo: editing.certificateNo,
        issuer: editing.issuer,
        balance: editing.balance,
        components: editing.components.map((c) => {
          const unit = unitFor(c.fraction);
          return {
            component: c.component,
            amount: toUnit(c.fraction, unit),
            expanded: toUnit(c.expanded, unit),
            unit,
          };
        }),
        expiresOn: dayjs(editing.expiresOn),
        notes: editing.notes,
      });
    }
  }, [open, editing, form]);

  const labels: Record<string, string> = {
    name: t('fields.name', '名称'),
    certificateNo: t('fields.refCertificateNo', '证书编号'),
    issuer: t('fields.issuer', '发证机构'),
    balance: t('fields.balance', '平衡气'),
    component: t('fields.component', '组分'),
    amount: t('fields.amount', '含量'),
    expanded: t('fields.expandedShort', 'U (k=2)'),
    expiresOn: t('fields.expiresOn', '有效期至'),
  };
  const listed = (skip: number) =>
    rows.flatMap((r, k) => (k !== skip && typeof r?.component === 'string' ? [r.component] : []));

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await gasApi.saveReference({
        ...(editing ? { id: editing.id } : {}),
        name: values.name.trim(),
        certificateNo: values.certificateNo.trim(),
        issuer: values.issuer?.trim() ?? '',
        balance: values.balance ?? '',
        components: (values.components ?? []).map((row) => ({
          component: row.component ?? '',
          fraction: toFraction(row.amount ?? 0, row.unit),
          expanded: toFraction(row.expanded ?? 0, row.unit),
        })),
        expiresOn: values.expiresOn?.format('YYYY-MM-DD') ?? '',
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
          ['name', 'certificateNo', 'issuer', 'balance', 'expiresOn', 'notes'],
          { components: { component: 'component', fraction: 'amount', expanded: 'expanded' } },
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
      title={editing ? t('reference.edit', '编辑标准物质') : t('reference.add', '新增标准物质')}
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
        initialValues={{ components: [NEW_AMOUNT_ROW] }}
        data-testid="gas-reference-form"
      >
        <div className="gas-form-grid">
          <Form.Item
            name="name"
            label={labels.name}
            rules={[{ required: true, whitespace: true, message: t('rules.nameRequired', '请输入名称') }]}
          >
            <Input
              maxLength={50}
              placeholder={t('reference.namePlaceholder', '如：CO2/N2 10 %')}
              data-testid="gas-reference-name"
            />
          </Form.Item>
          <Form.Item
            name="certificateNo"
            label={labels.certificateNo}
            rules={[
              {
                required: true,
                whitespace: true,
                message: t('rules.certificateNoRequired', '请输入证书编号'),
              },
            ]}
          >
            <Input maxLength={50} placeholder="GBW(E)060123" data-testid="gas-reference-certno" />
          </Form.Item>
          <Form.Item name="issuer" label={labels.issuer}>
            <Input maxLength={100} placeholder={t('reference.issuerPlaceholder', '如：中国计量科学研究院')} />
          </Form.Item>
          <Form.Item
            name="expiresOn"
            label={labels.expiresOn}
            rules={[{ required: true, message: t('rules.dateRequired', '请选择日期') }]}
          >
            <DatePicker style={{ width: '100%' }} data-testid="gas-reference-expires" />
          </Form.Item>
        </div>
        <AmountRows
          testPrefix="gas-reference"
          title={t('reference.values', '认定值')}
          exclude={(index) => (balance ? [balance, ...listed(index)] : listed(index))}
          uncertainty
          keepOne
        />
        <div className="gas-form-grid">
          <Form.Item
            name="balance"
            label={labels.balance}
            rules={[{ required: true, message: t('rules.balanceRequired', '请选择平衡气') }]}
          >
            <ComponentSelect exclude={listed(-1)} data-testid="gas-reference-balance" />
          </Form.Item>
        </div>
        <Form.Item name="notes" label={t('fields.notes', '备注')}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
