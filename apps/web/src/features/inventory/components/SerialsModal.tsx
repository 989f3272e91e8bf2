import { App, Form, Select, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { inventoryApi, useCategoryChoices } from '../api';
import { MAX_SERIALS, parseSerials, type Refused, refusedOf, withoutRefused } from '../model';
import { FormModal } from './FormModal';
import { RefusalAlert } from './RefusalAlert';
import { SerialsInput } from './SerialsInput';

interface Values {
  categoryId?: number;
  serials: string;
  finished: boolean;
}

/**
 * The production log's two writes by pasted serial numbers: `produce` records units made of an
 * own-product category (in production, or finished already); `finish` marks units in production
 * finished. All or none: a refusal lists every serial number refused.
 */
export function SerialsModal({
  mode,
  onClose,
  onDone,
}: {
  mode: 'produce' | 'finish' | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('inventory');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [refused, setRefused] = useState<Refused | null>(null);
  const categories = useCategoryChoices();
  const own = (categories.data?.list ?? []).filter((c) => c.kind === 'own');

  useEffect(() => {
    if (!mode) return;
    form.resetFields();
    setRefused(null);
  }, [mode, form]);

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    const sns = parseSerials(values.serials);
    setSaving(true);
    setRefused(null);
    try {
      const envelope =
        mode === 'produce'
          ? await inventoryApi.produce({ categoryId: values.categoryId!, sns, finished: values.finished })
          : await inventoryApi.finish(sns);
      message.success(envelope.message);
      onDone();
      onClose();
    } catch (error) {
      setRefused(refusedOf(error));
    } finally {
      setSaving(false);
    }
  };

  const serialsRule = {
    validator: async (_: unknown, value?: string) => {
      const n = parseSerials(value ?? '').length;
      if (n === 0) throw new Error(t('serials.required'));
      if (n > MAX_SERIALS) throw new Error(t('serials.tooMany', { count: n, max: MAX_SERIALS }));
    },
  };

  return (
    <FormModal
      open={mode !== null}
      title={mode === 'finish' ? t('log.finishTitle') : t('log.produceTitle')}
      okText={mode === 'finish' ? t('log.finish') : t('log.produce')}
      saving={saving}
      onOk={save}
      onClose={onClose}
      width={560}
    >
      <RefusalAlert
        refused={refused}
        onClose={() => setRefused(null)}
        onDrop={() => {
          form.setFieldValue(
            'serials',
            withoutRefused(form.getFieldValue('serials') ?? '', refused?.refusals ?? []),
          );
          setRefused(null);
        }}
        testId="inv-serials-refusal"
      />
      <Form
        form={form}
        layout="vertical"
        initialValues={{ serials: '', finished: true }}
        data-testid="inv-serials-form"
      >
        {mode === 'produce' ? (
          <Form.Item
            name="categoryId"
            label={t('log.ownCategory')}
            rules={[{ required: true, message: t('log.pickCategory') }]}
            extra={own.length ? undefined : t('log.noOwnCategory')}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={own.map((c) => ({ value: c.id, label: c.model ? `${c.name} · ${c.model}` : c.name }))}
              data-testid="inv-produce-category"
            />
          </Form.Item>
        ) : null}
        <Form.Item
          name="serials"
          label={t('fields.serials')}
          extra={mode === 'finish' ? t('log.finishHint') : t('serials.hint')}
          rules={[serialsRule]}
        >
          <SerialsInput testId="inv-serials-input" />
        </Form.Item>
        {mode === 'produce' ? (
          <Form.Item
            name="finished"
            label={t('log.finished')}
            extra={t('log.finishedHint')}
            valuePropName="checked"
          >
            <Switch data-testid="inv-produce-finished" />
          </Form.Item>
        ) : null}
      </Form>
    </FormModal>
  );
}
