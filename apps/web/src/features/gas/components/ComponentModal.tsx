import { App, Form, Input, InputNumber, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { type GasComponent, gasApi } from '../api';
import { formTarget, placeFieldError } from '../model';
import { positiveRule } from '../rules';

interface Values {
  formula: string;
  name: string;
  molarMass: number;
}

/** The server's rule for formulas: letters, digits and the signs of ions and isomers (CO2, n-C4H10). */
const FORMULA = /^[A-Za-z][A-Za-z0-9()+-]{0,19}$/;

/**
 * Add a component (`editing` null) or edit one. A component that pure gases or products use
 * keeps its formula: they name it by that.
 */
export function ComponentModal({
  open,
  editing,
  onClose,
  onDone,
}: {
  open: boolean;
  editing: GasComponent | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('gas');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const formulaLocked = (editing?.usedBy ?? 0) > 0;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing)
      form.setFieldsValue({ formula: editing.formula, name: editing.name, molarMass: editing.molarMass });
  }, [open, editing, form]);

  const labels: Record<string, string> = {
    formula: t('fields.formula', '化学式'),
    name: t('fields.componentName', '名称'),
    molarMass: t('fields.molarMass', '摩尔质量'),
  };

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await gasApi.saveComponent({
        ...(editing ? { id: editing.id } : {}),
        formula: values.formula.trim(),
        name: values.name.trim(),
        molarMass: values.molarMass,
      });
      message.success(envelope.message);
      onDone();
      onClose();
    } catch (error) {
      placeFieldError(
        form,
        error,
        formTarget(['formula', 'name', 'molarMass'], {}, (n) => labels[n]),
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={editing ? t('properties.edit', '编辑组分') : t('properties.add', '新增组分')}
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={save}
      onCancel={onClose}
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="gas-component-form">
        <Form.Item
          name="formula"
          label={labels.formula}
          extra={
            formulaLocked
              ? t('properties.formulaLocked', '已被 {{count}} 处使用，化学式不可修改', {
                  count: editing?.usedBy,
                })
              : undefined
          }
          rules={[
            { required: true, whitespace: true, message: t('rules.formulaRequired', '请输入化学式') },
            {
              pattern: FORMULA,
              message: t(
                'rules.formulaPattern',
                '化学式以字母开头，只含字母、数字和 ( ) + -，至多 20 个字符',
              ),
            },
          ]}
        >
          <Input
            maxLength={20}
            disabled={formulaLocked}
            placeholder="CO2"
            data-testid="gas-component-formula"
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={labels.name}
          rules={[{ required: true, whitespace: true, message: t('rules.nameRequired', '请输入名称') }]}
        >
          <Input
            maxLength={50}
            placeholder={t('properties.namePlaceholder', '如：二氧化碳')}
            data-testid="gas-component-name"
          />
        </Form.Item>
        <Form.Item
          name="molarMass"
          label={labels.molarMass}
          rules={[
            { required: true, message: t('rules.molarMassRequired', '请输入摩尔质量') },
            positiveRule(t('rules.positive', '必须大于 0')),
          ]}
        >
          <InputNumber<number>
            style={{ width: '100%' }}
            step={0.001}
            suffix="g/mol"
            data-testid="gas-component-molar-mass"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
