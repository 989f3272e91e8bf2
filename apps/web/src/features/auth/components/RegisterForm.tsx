import { Button, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authApi } from '../api';
import { showFieldError, useFinishLogin, useSharedPhone } from '../hooks';
import { NewPasswordFields, PhoneField, SmsCodeField, UserNameField } from './fields';

interface Values {
  phone: string;
  smsCode: string;
  userName?: string;
  password: string;
  confirm: string;
}

/** Register with phone + SMS code + password; the new account is logged in at once. */
export function RegisterForm({
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
      const userName = values.userName?.trim() || undefined;
      const token = await authApi.register({
        phone: values.phone,
        smsCode: values.smsCode,
        password: values.password,
        userName,
      });
      await finish(token);
    } catch (error) {
      showFieldError(form, error, ['phone', 'smsCode', 'userName', 'password']);
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
      data-testid="register-form"
    >
      <PhoneField testId="register" autoFocus />
      <SmsCodeField form={form} testId="register" />
      <UserNameField testId="register" />
      <NewPasswordFields testId="register" label={t('fields.password', '密码')} />
      <Button
        type="primary"
        htmlType="submit"
        size="large"
        block
        loading={busy}
        data-testid="register-submit"
      >
        {t('register.submit', '注册并登录')}
      </Button>
    </Form>
  );
}
