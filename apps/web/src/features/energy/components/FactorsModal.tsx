import { type CoalFactors, GJ_PER_TCE } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, InputNumber, Modal, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { energyApi, energyKeys, useFactors } from '../api';
import { placeFieldError } from '../model';

/**
 * The factors the pages convert with, each in the unit an engineer reads it in: raw coal in tce
 * per tonne, natural gas in kgce per m³, steam as the GJ a tonne carries (÷ 29.3076 GJ/tce).
 */
const SHOWN = {
  rawCoal: { toShown: (f: number) => f, fromShown: (v: number) => v, unit: 'tce/t' },
  naturalGas: { toShown: (f: number) => f * 1000, fromShown: (v: number) => v / 1000, unit: 'kgce/m³' },
  steam: { toShown: (f: number) => f * GJ_PER_TCE, fromShown: (v: number) => v / GJ_PER_TCE, unit: 'GJ/t' },
} as const;
type Shown = keyof typeof SHOWN;
const KINDS = Object.keys(SHOWN) as Shown[];

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** The company's own standard coal factors; an emptied field goes back to the default. */
export function FactorsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('energy');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const factors = useFactors(open);
  const [form] = Form.useForm<Partial<Record<Shown, number | null>>>();
  const [saving, setSaving] = useState(false);
  const data = factors.data;

  useEffect(() => {
    if (!open || !data) return;
    form.setFieldsValue(
      Object.fromEntries(KINDS.map((k) => [k, round(SHOWN[k].toShown(data.factors[k]))])) as Record<
        Shown,
        number
      >,
    );
  }, [open, data, form]);

  const save = async () => {
    const values = await validated(form);
    if (!values || !data) return;
    setSaving(true);
    try {
      const body: Partial<Record<keyof CoalFactors, number | null>> = {};
      for (const k of KINDS) {
        const v = values[k];
        const shownDefault = round(SHOWN[k].toShown(data.defaults[k]));
        // empty or the default as shown: the default itself
        body[k] = v === null || v === undefined || v === shownDefault ? null : SHOWN[k].fromShown(v);
      }
      const envelope = await energyApi.saveFactors(body);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: energyKeys.all });
      onClose();
    } catch (error) {
      placeFieldError(form, error, KINDS);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('factors.title')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={save}
      onCancel={onClose}
      width={520}
      forceRender
    >
      <Alert type="info" showIcon className="energy-alert" title={t('factors.hint')} />
      {factors.isFetching && !data ? <Spin /> : null}
      <Form form={form} layout="vertical" data-testid="energy-factors-form">
        {KINDS.map((k) => (
          <Form.Item
            key={k}
            name={k}
            label={t(`factors.${k}`)}
            rules={[{ type: 'number', min: Number.MIN_VALUE, message: t('rules.factor') }]}
            extra={
              data ? (
                <span>
                  {t('factors.default', {
                    value: round(SHOWN[k].toShown(data.defaults[k])),
                    unit: SHOWN[k].unit,
                  })}{' '}
                  <Button
                    type="link"
                    size="small"
                    className="energy-inline-link"
                    onClick={() => form.setFieldValue(k, round(SHOWN[k].toShown(data.defaults[k])))}
                  >
                    {t('factors.useDefault')}
                  </Button>
                </span>
              ) : undefined
            }
          >
            <InputNumber className="energy-full" min={0} step={0.0001} suffix={SHOWN[k].unit} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
