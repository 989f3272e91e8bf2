import { useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { type Cylinder, gasApi, gasKeys } from '../api';
import { formTarget, placeFieldError } from '../model';

/** the longest reason the server keeps (gas/cylinders.ts MAX_REVOKE_REASON) */
const MAX_REASON = 200;

/**
 * Revokes a cylinder's certificate, with the reason kept beside it: the certificate stops
 * being downloadable and the cylinder waits for a new one (a reissue, numbered after it).
 */
export function RevokeModal({
  cylinder,
  onClose,
  onRevoked,
}: {
  cylinder: Cylinder | null;
  onClose: () => void;
  onRevoked: () => void;
}) {
  const { t } = useTranslation('gas');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const label = t('certs.revokeReason', '撤销原因');

  useEffect(() => {
    if (cylinder) form.resetFields();
  }, [cylinder, form]);

  const revoke = async () => {
    if (!cylinder) return;
    const values = await validated(form);
    if (!values) return;
    setBusy(true);
    try {
      const envelope = await gasApi.revokeCertificate(cylinder.id, values.reason.trim());
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: gasKeys.all });
      onRevoked();
      onClose();
    } catch (error) {
      placeFieldError(
        form,
        error,
        formTarget(['reason'], {}, () => label),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={cylinder !== null}
      title={t('certs.revokeTitle', '撤销证书 {{number}}', { number: cylinder?.certificate?.number ?? '' })}
      okText={t('certs.revoke', '撤销证书')}
      okButtonProps={{ danger: true, 'data-testid': 'gas-revoke-ok' } as never}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={busy}
      onOk={revoke}
      onCancel={onClose}
      forceRender
    >
      <Typography.Paragraph type="secondary">
        {t(
          'certs.revokeHint',
          '撤销后该证书不能再下载；气瓶回到“待出证书”，可重新分析并出具新证书，新证书编号注明其替代的证书。',
        )}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" data-testid="gas-revoke-form">
        <Form.Item
          name="reason"
          label={label}
          rules={[
            { required: true, whitespace: true, message: t('certs.reasonRequired', '请填写撤销原因') },
            { max: MAX_REASON, message: t('certs.reasonTooLong', '撤销原因最多 200 个字') },
          ]}
        >
          <Input.TextArea rows={3} maxLength={MAX_REASON} showCount data-testid="gas-revoke-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
