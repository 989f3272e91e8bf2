import { useQueryClient } from '@tanstack/react-query';
import { App, DatePicker, Form, Input, InputNumber, Modal, Select, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { type Cylinder, gasApi, gasKeys, useReferenceChoices } from '../api';
import { formTarget, placeFieldError } from '../model';
import { positiveRule } from '../rules';

interface Values {
  certifiedOn: Dayjs;
  validMonths: number;
  pressureMPa: number;
  tempMinC: number;
  tempMaxC: number;
  laboratory: string;
  referenceIds: number[];
}

/** The laboratory is the same on every certificate a person issues: remembered in this browser. */
const LAB_KEY = 'gas.certificate.laboratory';

/**
 * Issues the certificate of analysis of a cylinder that passed quality control: the dates, the
 * pressure at certification, the temperature limits, the laboratory and the reference materials
 * (those quality control named are chosen already).
 */
export function CertificateModal({
  cylinder,
  onClose,
  onIssued,
}: {
  cylinder: Cylinder | null;
  onClose: () => void;
  onIssued: (cylinder: Cylinder) => void;
}) {
  const { t } = useTranslation('gas');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const references = useReferenceChoices(cylinder !== null);

  useEffect(() => {
    if (!cylinder) return;
    form.resetFields();
    form.setFieldsValue({
      certifiedOn: dayjs(),
      validMonths: 12,
      tempMinC: -10,
      tempMaxC: 40,
      laboratory: window.localStorage.getItem(LAB_KEY) ?? '',
      referenceIds: [
        ...new Set(cylinder.analyses.flatMap((a) => (a.referenceMaterialId ? [a.referenceMaterialId] : []))),
      ],
    });
  }, [cylinder, form]);

  const labels: Record<string, string> = {
    certifiedOn: t('fields.certifiedOn', '定值日期'),
    validMonths: t('fields.validMonths', '有效期（月）'),
    pressureMPa: t('fields.certPressure', '定值时压力 (MPa)'),
    tempMinC: t('fields.tempMinC', '最低温度 (°C)'),
    tempMaxC: t('fields.tempMaxC', '最高温度 (°C)'),
    laboratory: t('fields.laboratory', '定值实验室'),
    referenceIds: t('fields.references', '溯源标准物质'),
  };

  const issue = async () => {
    if (!cylinder) return;
    const values = await validated(form);
    if (!values) return;
    setBusy(true);
    try {
      const laboratory = values.laboratory.trim();
      const envelope = await gasApi.issueCertificate({
        id: cylinder.id,
        certifiedOn: values.certifiedOn.format('YYYY-MM-DD'),
        validMonths: values.validMonths,
        pressureMPa: values.pressureMPa,
        tempMinC: values.tempMinC,
        tempMaxC: values.tempMaxC,
        laboratory,
        referenceIds: values.referenceIds ?? [],
      });
      window.localStorage.setItem(LAB_KEY, laboratory);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: gasKeys.all });
      onIssued({ ...cylinder, status: 'certified', certificate: envelope.data });
      onClose();
    } catch (error) {
      const target = formTarget(Object.keys(labels), {}, (n) => labels[n]);
      placeFieldError(form, error, {
        ...target,
        // `referenceIds[1]` is the select as a whole
        place: (path) => (path[0] === 'referenceIds' ? 'referenceIds' : target.place(path)),
      });
    } finally {
      setBusy(false);
    }
  };

  const number = (name: keyof Values, extra: object = {}) => (
    <InputNumber<number>
      style={{ width: '100%' }}
      aria-label={labels[name]}
      data-testid={`gas-cert-${name}`}
      {...extra}
    />
  );

  return (
    <Modal
      open={cylinder !== null}
      title={t('certs.issueTitle', '出具证书 · {{sn}}', { sn: cylinder?.serialNumber ?? '' })}
      okText={t('certs.issue', '出具证书')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={busy}
      onOk={issue}
      onCancel={onClose}
      width={640}
      forceRender
    >
      <Typography.Paragraph type="secondary">
        {t('certs.issueHint', '证书出具后，该气瓶的称量、分析与证书信息不能再修改。')}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" data-testid="gas-certificate-form">
        <div className="gas-form-grid">
          <Form.Item
            name="certifiedOn"
            label={labels.certifiedOn}
            rules={[{ required: true, message: t('rules.dateRequired', '请选择日期') }]}
          >
            <DatePicker style={{ width: '100%' }} allowClear={false} data-testid="gas-cert-certifiedOn" />
          </Form.Item>
          <Form.Item
            name="validMonths"
            label={labels.validMonths}
            rules={[{ required: true, message: t('rules.monthsRequired', '请输入 1 到 120 个月') }]}
          >
            {number('validMonths', { min: 1, max: 120, precision: 0 })}
          </Form.Item>
          <Form.Item
            name="pressureMPa"
            label={labels.pressureMPa}
            rules={[
              { required: true, message: t('rules.pressureRequired', '请输入压力') },
              positiveRule(t('rules.positive', '必须大于 0')),
            ]}
          >
            {number('pressureMPa', { step: 0.1, suffix: 'MPa' })}
          </Form.Item>
          <div className="gas-form-pair">
            <Form.Item
              name="tempMinC"
              label={labels.tempMinC}
              rules={[{ required: true, message: t('rules.temperatureRequired', '请输入温度') }]}
            >
              {number('tempMinC', { suffix: '°C' })}
            </Form.Item>
            <Form.Item
              name="tempMaxC"
              label={labels.tempMaxC}
              dependencies={['tempMinC']}
              rules={[
                { required: true, message: t('rules.temperatureRequired', '请输入温度') },
                ({ getFieldValue }) => ({
                  validator: async (_rule, max: unknown) => {
                    const min = getFieldValue('tempMinC');
                    if (typeof max === 'number' && typeof min === 'number' && max <= min)
                      throw new Error(t('rules.tempOrder', '最高温度必须高于最低温度'));
                  },
                }),
              ]}
            >
              {number('tempMaxC', { suffix: '°C' })}
            </Form.Item>
          </div>
        </div>
        <Form.Item
          name="laboratory"
          label={labels.laboratory}
          rules={[
            { required: true, whitespace: true, message: t('rules.laboratoryRequired', '请输入定值实验室') },
          ]}
        >
          <Input maxLength={100} data-testid="gas-cert-laboratory" />
        </Form.Item>
        <Form.Item name="referenceIds" label={labels.referenceIds}>
          <Select<number[]>
            mode="multiple"
            allowClear
            loading={references.isLoading}
            placeholder={t('certs.pickReferences', '证书溯源声明中列出的标准物质')}
            options={(references.data?.list ?? []).map((r) => ({
              value: r.id,
              label: `${r.name} (${r.certificateNo})`,
            }))}
            data-testid="gas-cert-references"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
