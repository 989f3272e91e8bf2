import { Button, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../app/feedback';
import { authApi } from '../api';
import { showFieldError, useSharedPhone } from '../hooks';
import { NewPasswordFields, PhoneField, SmsCodeField } from './fields';

interface Values {
  phone: string;
  smsCode: string;
  password: string;
  confirm: string;
}

/** A new password set with an SMS code; every session of the account ends (server side). */
export function ForgotPasswordForm({
  phone,
  onPhoneChange,
  onDone,
}: {
  phone: string;
  onPhoneChange: (phone: string) => void;
  /** back to the password tab, the phone filled in */
  onDone: (phone: string) => void;
}) {
  const { t } = useTranslation('auth');
  const { message } = useFeedback();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  useSharedPhone(form, phone);

  const submit = async (values: Values) => {
    setBusy(true);
    try {
      await authApi.resetPassword({
        phone: values.phone,
        smsCode: values.smsCode,
        password: values.password,
      });
      message.success(t('forgot.done', '密码已重置，请使用新密码登录'));
      onDone(values.phone);
    } catch (error) {
      showFieldError(form, error, ['phone', 'smsCode', 'password']);
      setBusy(false);
    }
  };

  return (
    <Form
      form={form}
      initialValues={{ phone }}
      onFinish={submit}
      onValuesChange={(changed: Partial<Values>) => {
        if (changed.phone !== undefined) onPhoneChange(changed.phone);
      }}
      requiredMark={false}
      data-testid="forgot-form"
    >
      <PhoneField testId="forgot" autoFocus />
      <SmsCodeField form={form} testId="forgot" />
      <NewPasswordFields testId="forgot" label={t('fields.newPassword', '新密码')} />
      <Button type="primary" htmlType="submit" size="large" block loading={busy} data-testid="forgot-submit">
        {t('forgot.submit', '重置密码')}
      </Button>
    </Form>
  );
}
