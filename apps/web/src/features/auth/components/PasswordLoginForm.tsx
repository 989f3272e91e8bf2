import { Button, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { preloadHttp } from '../../../app/http/client';
import { authApi } from '../api';
import { showFieldError, useFinishLogin, useSharedPhone } from '../hooks';
import { LoginPasswordField, PhoneField } from './fields';

interface Values {
  phone: string;
  password: string;
}

/**
 * Phone + password. The password is only required here, not checked against the rule for
 * new passwords: accounts older than the rule must still be able to log in.
 */
export function PasswordLoginForm({
  phone,
  onPhoneChange,
  onForgot,
}: {
  phone: string;
  onPhoneChange: (phone: string) => void;
  onForgot: () => void;
}) {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<Values>();
  const finish = useFinishLogin();
  const [busy, setBusy] = useState(false);
  useSharedPhone(form, phone);

  const submit = async (values: Values) => {
    setBusy(true);
    try {
      await finish(await authApi.loginWithPassword(values.phone, values.password));
    } catch (error) {
      showFieldError(form, error, ['phone', 'password']);
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
      data-testid="password-form"
    >
      <PhoneField testId="login" autoFocus={!phone} />
      <LoginPasswordField testId="login" />
      <div className="auth-form-extra">
        <Button type="link" className="auth-link" onClick={onForgot} data-testid="to-forgot">
          {t('login.forgot', '忘记密码？')}
        </Button>
      </div>
      <Button type="primary" htmlType="submit" size="large" block loading={busy} data-testid="login-submit">
        {t('login.submit', '登录')}
      </Button>
    </Form>
  );
}
