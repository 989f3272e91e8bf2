import { SaveOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { validated } from '../../../shared/validated';
import { gasApi, gasKeys, type WeighedParent } from '../api';
import { formTarget, gasPaths, placeFieldError } from '../model';

/**
 * Saves what was just certified as a filled cylinder under its serial number, for quality
 * control and the certificate. The server recomputes the composition from the same weighing.
 */
export function SaveCylinder({ productId, parents }: { productId: number; parents: WeighedParent[] }) {
  const { t } = useTranslation('gas');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ serialNumber: string }>();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setBusy(true);
    try {
      const serialNumber = values.serialNumber.trim();
      const envelope = await gasApi.saveCylinder({ serialNumber, productId, parents });
      message.success(envelope.message);
      setSaved(serialNumber);
      form.resetFields();
      await queryClient.invalidateQueries({ queryKey: gasKeys.all });
    } catch (error) {
      placeFieldError(
        form,
        error,
        formTarget(['serialNumber'], {}, () => t('fields.serialNumber', '气瓶编号')),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="gas-save-cylinder" data-testid="gas-save-cylinder">
      <Form form={form} layout="inline" onFinish={save}>
        <Form.Item
          name="serialNumber"
          label={t('fields.serialNumber', '气瓶编号')}
          rules={[{ required: true, whitespace: true, message: t('rules.serialRequired', '请输入气瓶编号') }]}
        >
          <Input maxLength={50} placeholder="CY-2026-0001" data-testid="gas-cylinder-serial" />
        </Form.Item>
        <Button
          type="primary"
          ghost
          icon={<SaveOutlined />}
          loading={busy}
          onClick={save}
          data-testid="gas-cylinder-save"
        >
          {t('calc.saveCylinder', '保存为气瓶')}
        </Button>
      </Form>
      {saved ? (
        <Alert
          type="success"
          showIcon
          className="gas-alert"
          title={t('calc.cylinderSaved', '气瓶 {{sn}} 已保存', { sn: saved })}
          description={<Link to={gasPaths.quality}>{t('calc.toQuality', '前往质量控制录入分析结果')}</Link>}
          data-testid="gas-cylinder-saved"
        />
      ) : null}
    </div>
  );
}
