import { Button, Form, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authApi, type TokenData } from '../api';
import { showFieldError } from '../hooks';
import { PhoneField, SmsCodeField } from './fields';

interface Values {
  phone: string;
  smsCode: string;
}

/**
 * First scan of an identity: bind it to a phone (an existing account, or a new one named
 * after the nickname). Next time the same identity logs straight in.
 */
export function ScanBindForm({
  sceneId,
  nickname,
  phone,
  onToken,
  onExpired,
  onRescan,
}: {
  sceneId: string;
  nickname: string;
  phone: string;
  onToken: (token: TokenData) => Promise<void>;
  onExpired: () => void;
  onRescan: () => void;
}) {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);

  const submit = async (values: Values) => {
    setBusy(true);
    try {
      await onToken(await authApi.bindScanPhone({ sceneId, phone: values.phone, smsCode: values.smsCode }));
    } catch (error) {
      const field = (error as { data?: { field?: unknown } } | null)?.data?.field;
      if (field === 'sceneId') {
        onExpired();
        return;
      }
      showFieldError(form, error, ['phone', 'smsCode']);
      setBusy(false);
    }
  };

  return (
    <div className="auth-scan-bind" data-testid="scan-bind">
      <Typography.Title level={5} className="auth-scan-bind-title">
        {nickname
          ? t('scan.bindTitle', '你好，{{nickname}}', { nickname })
          : t('scan.bindTitleNoName', '绑定手机号')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" className="auth-scan-bind-text">
        {t(
          'scan.bindText',
          '首次扫码登录，请绑定手机号。手机号已注册的，将绑定到该账号；未注册的，将为你创建新账号。',
        )}
      </Typography.Paragraph>
      <Form form={form} initialValues={{ phone }} onFinish={submit} requiredMark={false}>
        <PhoneField testId="bind" autoFocus />
        <SmsCodeField form={form} testId="bind" />
        <Button type="primary" htmlType="submit" size="large" block loading={busy} data-testid="bind-submit">
          {t('scan.bindSubmit', '绑定并登录')}
        </Button>
      </Form>
      <div className="auth-switch-line">
        <Button type="link" className="auth-link" onClick={onRescan} data-testid="scan-rescan">
          {t('scan.rescan', '重新扫码')}
        </Button>
      </div>
    </div>
  );
}
