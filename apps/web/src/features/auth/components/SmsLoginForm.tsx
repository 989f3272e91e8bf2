import { Button, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { preloadHttp } from '../../../app/http/client';
import { authApi } from '../api';
import { showFieldError, useFinishLogin, useSharedPhone } from '../hooks';
import { PhoneField, SmsCodeField } from './fields';

interface Values {
  phone: string;
  smsCode: string;
}

/** Phone + the code sent to it; the phone must already have an account (else: register). */
export function SmsLoginForm({
  phone,
  onPhoneChange,
}: {
  phone: string;
  onPhoneChange: (phone: string) => void;
}) {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<Values>();
  const finish = useFinishLogin();
  const [busy, setBusy] = useState(false);
  useSharedPhone(form, phone);

  const submit = async (values: Values) => {
    setBusy(true);
    try {
      await finish(await authApi.loginWithSmsCode(values.phone, values.smsCode));
    } catch (error) {
      showFieldError(form, error, ['phone', 'smsCode']);
      setBusy(false);
    }
  };

  return (
    <Form
      // the http client loads while the person types, not when they press the button (not on
      // focus: the phone field takes the focus as the page opens)
      onKeyDown={preloadHttp}
      form={form}
      initialValues={{ phone }}
      onFinish={submit}
      onValuesChange={(changed: Partial<Values>) => {
        if (changed.phone !== undefined) onPhoneChange(changed.phone);
      }}
      requiredMark={false}
      data-testid="sms-form"
    >
      <PhoneField testId="sms" />
      <SmsCodeField form={form} testId="sms" />
      <Button type="primary" htmlType="submit" size="large" block loading={busy} data-testid="sms-submit">
        {t('login.submit', '登录')}
      </Button>
    </Form>
  );
}
