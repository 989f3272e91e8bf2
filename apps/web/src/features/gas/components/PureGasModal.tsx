import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, InputNumber, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { gasApi, type Impurity, type PureGas } from '../api';
import { formatPurity, formTarget, placeFieldError } from '../model';
import { notNegativeRule, positiveRule } from '../rules';
import { ComponentSelect } from './ComponentSelect';

interface Values {
  name: string;
  main?: string;
  impurities?: Array<Partial<Impurity>>;
  supplier?: string;
  lot?: string;
  cylinder?: string;
}

/** Add a parent gas (`editing` null) or edit one: its main component and purity table. */
export function PureGasModal({
  open,
  editing,
  onClose,
  onDone,
}: {
  open: boolean;
  editing: PureGas | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('gas');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const main = Form.useWatch('main', form);
  const impurities = Form.useWatch('impurities', form) ?? [];

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing)
      form.setFieldsValue({
        name: editing.name,
        main: editing.main,
        impurities: editing.impurities.map((i) => ({ ...i })),
        supplier: editing.supplier,
        lot: editing.lot,
        cylinder: editing.cylinder,
      });
  }, [open, editing, form]);

  const labels: Record<string, string> = {
    name: t('fields.name', '名称'),
    main: t('fields.main', '主组分'),
    component: t('fields.impurity', '杂质'),
    umolPerMol: t('fields.umolPerMol', '含量 (µmol/mol)'),
    uUmolPerMol: t('fields.uUmolPerMol', '标准不确定度 u (µmol/mol)'),
  };

  const impurityTotal = impurities.reduce(
    (sum, i) => sum + (typeof i?.umolPerMol === 'number' ? i.umolPerMol : 0),
    0,
  );
  const purity = 1 - impurityTotal / 1e6;
  const listed = (skip: number) =>
    impurities.flatMap((i, k) => (k !== skip && typeof i?.component === 'string' ? [i.component] : []));
  // a component is listed once: as the main one or as one impurity
  const taken = (index: number) => (main ? [main, ...listed(index)] : listed(index));

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await gasApi.savePureGas({
        ...(editing ? { id: editing.id } : {}),
        name: values.name.trim(),
        main: values.main ?? '',
        impurities: (values.impurities ?? []).map((i) => ({
          component: i.component ?? '',
          umolPerMol: i.umolPerMol ?? 0,
          ...(typeof i.uUmolPerMol === 'number' ? { uUmolPerMol: i.uUmolPerMol } : {}),
        })),
        supplier: values.supplier?.trim() ?? '',
        lot: values.lot?.trim() ?? '',
        cylinder: values.cylinder?.trim() ?? '',
      });
      message.success(envelope.message);
      onDone();
      onClose();
    } catch (error) {
      placeFieldError(
        form,
        error,
        formTarget(
          ['name', 'main', 'supplier', 'lot', 'cylinder'],
          { impurities: { component: 'component', umolPerMol: 'umolPerMol', uUmolPerMol: 'uUmolPerMol' } },
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
      title={editing ? t('pure.edit', '编辑纯气') : t('pure.add', '新增纯气')}
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={save}
      onCancel={onClose}
      width={640}
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="gas-pure-form">
        <div className="gas-form-grid">
          <Form.Item
            name="name"
            label={labels.name}
            rules={[{ required: true, whitespace: true, message: t('rules.nameRequired', '请输入名称') }]}
          >
            <Input
              maxLength={50}
              placeholder={t('pure.namePlaceholder', '如：CO2 99.995 %')}
              data-testid="gas-pure-name"
            />
          </Form.Item>
          <Form.Item
            name="main"
            label={labels.main}
            rules={[{ required: true, message: t('rules.mainRequired', '请选择主组分') }]}
          >
            <ComponentSelect exclude={listed(-1)} data-testid="gas-pure-main" />
          </Form.Item>
        </div>
        <Form.List name="impurities">
          {(fields, { add, remove }, { errors }) => (
            <div className="gas-list" data-testid="gas-pure-impurities">
              <div className="gas-list-head">
                <Typography.Text strong>{t('pure.impurities', '杂质')}</Typography.Text>
                <Typography.Text type="secondary" data-testid="gas-pure-purity">
                  {t('pure.purityIs', '纯度')} {formatPurity(Math.max(0, purity))}
                </Typography.Text>
              </div>
              {fields.length > 0 ? (
                <Typography.Paragraph type="secondary" className="gas-list-empty">
                  {t(
                    'pure.uHint',
                    '每种杂质可填纯度分析的标准不确定度 u，它会传递到定值的扩展不确定度 U 中；不填按 0 计。',
                  )}
                </Typography.Paragraph>
              ) : null}
              {fields.length === 0 ? (
                <Typography.Paragraph type="secondary" className="gas-list-empty">
                  {t('pure.noImpurities', '未列出杂质时，纯度按 100 % 计。')}
                </Typography.Paragraph>
              ) : null}
              {fields.map((field) => (
                <div key={field.key} className="gas-row gas-row-impurity" data-testid="gas-pure-impurity">
                  <Form.Item
                    name={[field.name, 'component']}
                    rules={[{ required: true, message: t('rules.componentRequired', '请选择组分') }]}
                  >
                    <ComponentSelect exclude={taken(field.name)} aria-label={labels.component} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'umolPerMol']}
                    rules={[
                      { required: true, message: t('rules.amountRequired', '请输入含量') },
                      positiveRule(t('rules.positive', '必须大于 0')),
                    ]}
                  >
                    <InputNumber<number>
                      style={{ width: '100%' }}
                      suffix="µmol/mol"
                      aria-label={labels.umolPerMol}
                      placeholder={t('pure.amount', '含量')}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'uUmolPerMol']}
                    rules={[notNegativeRule(t('rules.notNegative', '不能小于 0'))]}
                  >
                    <InputNumber<number>
                      style={{ width: '100%' }}
                      prefix="u"
                      suffix="µmol/mol"
                      aria-label={labels.uUmolPerMol}
                      placeholder={t('pure.uPlaceholder', '可选')}
                      data-testid="gas-pure-impurity-u"
                    />
                  </Form.Item>
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    onClick={() => remove(field.name)}
                    aria-label={t('common.remove', '移除')}
                  />
                </div>
              ))}
              <Form.ErrorList errors={errors} />
              <Button
                type="dashed"
                block
                icon={<PlusOutlined />}
                onClick={() => add({})}
                data-testid="gas-pure-add-impurity"
              >
                {t('pure.addImpurity', '添加杂质')}
              </Button>
            </div>
          )}
        </Form.List>
        <div className="gas-form-grid gas-form-grid-3">
          <Form.Item name="supplier" label={t('fields.supplier', '供应商')}>
            <Input maxLength={100} data-testid="gas-pure-supplier" />
          </Form.Item>
          <Form.Item name="lot" label={t('fields.lot', '批号')}>
            <Input maxLength={50} data-testid="gas-pure-lot" />
          </Form.Item>
          <Form.Item name="cylinder" label={t('fields.cylinder', '钢瓶号')}>
            <Input maxLength={50} data-testid="gas-pure-cylinder" />
          </Form.Item>
        </div>
      </Form>
    </Modal>
  );
}
