/**
 * Form fields the login, registration, password-reset and scan-bind forms share. The rules
 * are the server's (checkPhone, checkPassword, checkName of @platform/domain), so a form
 * refuses exactly what the server would.
 */

import { LockOutlined, MobileOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { ERROR_CODES } from '@platform/domain/error-codes';
import { checkName } from '@platform/domain/validation';
import { Button, Form, type FormInstance, type InputRef } from 'antd';
// the input and the password input by themselves: `Input` from 'antd' brings TextArea, Search
// and OTP along (its static members), which the login page never shows
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../app/feedback';
import { ApiError } from '../../../app/http/client';
import { NAME_COUNT, passwordRules, phoneRules } from '../../../shared/rules';
import { authApi } from '../api';
import { showFieldError, useCountdown } from '../hooks';

/** The server sends at most one code per phone a minute. */
export const SMS_RESEND_SECONDS = 60;
const SMS_CODE = /^\d{6}$/;

const digitsOnly = (value: unknown): string => (typeof value === 'string' ? value.replace(/\D/g, '') : '');

export function PhoneField({ testId, autoFocus }: { testId: string; autoFocus?: boolean }) {
  const { t } = useTranslation('auth');
  return (
    <Form.Item
      name="phone"
      rules={phoneRules(t('validation.phone', '请输入正确的手机号码'))}
      normalize={digitsOnly}
      validateTrigger="onBlur"
    >
      <Input
        size="large"
        prefix={<MobileOutlined className="auth-input-icon" />}
        placeholder={t('fields.phone', '手机号')}
        aria-label={t('fields.phone', '手机号')}
        maxLength={11}
        inputMode="numeric"
        autoComplete="tel"
        autoFocus={autoFocus}
        data-testid={`${testId}-phone`}
      />
    </Form.Item>
  );
}

/** Code input with the "get code" button beside it; the button checks the phone first and then counts down. */
export function SmsCodeField({ form, testId }: { form: FormInstance; testId: string }) {
  const { t } = useTranslation('auth');
  const { message } = useFeedback();
  const { remaining, start } = useCountdown();
  const [sending, setSending] = useState(false);
  const input = useRef<InputRef>(null);

  const send = async () => {
    let phone: string;
    try {
      phone = (await form.validateFields(['phone'])).phone;
    } catch {
      return; // the phone field shows why
    }
    setSending(true);
    try {
      await authApi.sendSmsCode(phone);
      start(SMS_RESEND_SECONDS);
      message.success(t('sms.sent', '验证码已发送，请注意查收'));
      input.current?.focus();
    } catch (error) {
      // a phone held back by its backoff: the button counts down the wait the server gave
      const retryAfter =
        error instanceof ApiError ? (error.data as { retryAfter?: unknown } | null)?.retryAfter : null;
      if (
        error instanceof ApiError &&
        error.code === ERROR_CODES.RATE_LIMITED &&
        typeof retryAfter === 'number'
      ) {
        start(retryAfter);
      }
      showFieldError(form, error, ['phone']);
    } finally {
      setSending(false);
    }
  };

  return (
    <Form.Item required>
      <div className="auth-code-row">
        <Form.Item
          name="smsCode"
          noStyle
          normalize={digitsOnly}
          validateTrigger="onBlur"
          rules={[
            {
              validator: async (_rule, value: unknown) => {
                if (typeof value !== 'string' || !SMS_CODE.test(value)) {
                  throw new Error(t('validation.smsCode', '请输入6位数字验证码'));
                }
              },
            },
          ]}
        >
          <Input
            ref={input}
            size="large"
            prefix={<SafetyOutlined className="auth-input-icon" />}
            placeholder={t('fields.smsCode', '验证码')}
            aria-label={t('fields.smsCode', '验证码')}
            maxLength={6}
            inputMode="numeric"
            autoComplete="one-time-code"
            data-testid={`${testId}-code`}
          />
        </Form.Item>
        <Button
          size="large"
          className="auth-code-button"
          loading={sending}
          disabled={remaining > 0}
          onClick={send}
          data-testid={`${testId}-get-code`}
        >
          {remaining > 0
            ? t('sms.resendIn', '{{seconds}} 秒后重新获取', { seconds: remaining })
            : t('sms.get', '获取验证码')}
        </Button>
      </div>
    </Form.Item>
  );
}

export function LoginPasswordField({ testId }: { testId: string }) {
  const { t } = useTranslation('auth');
  return (
    <Form.Item name="password" rules={[{ required: true, message: t('validation.password', '请输入密码') }]}>
      <Password
        size="large"
        prefix={<LockOutlined className="auth-input-icon" />}
        placeholder={t('fields.password', '密码')}
        aria-label={t('fields.password', '密码')}
        autoComplete="current-password"
        data-testid={`${testId}-password`}
      />
    </Form.Item>
  );
}

/** A new password (the server's rule) and its confirmation. */
export function NewPasswordFields({ testId, label }: { testId: string; label: string }) {
  const { t } = useTranslation('auth');
  return (
    <>
      <Form.Item
        name="password"
        rules={passwordRules(t('validation.passwordWeak', '密码须为8至64位，且包含字母和数字'))}
        extra={<span className="auth-hint">{t('fields.passwordHint', '8 至 64 位，须包含字母和数字')}</span>}
        validateTrigger="onBlur"
      >
        <Password
          size="large"
          prefix={<LockOutlined className="auth-input-icon" />}
          placeholder={label}
          aria-label={label}
          autoComplete="new-password"
          data-testid={`${testId}-password`}
        />
      </Form.Item>
      <Form.Item
        name="confirm"
        dependencies={['password']}
        validateTrigger="onBlur"
        rules={[
          { required: true, message: t('validation.confirm', '请再次输入密码') },
          ({ getFieldValue }) => ({
            validator: async (_rule, value: unknown) => {
              if (value && value !== getFieldValue('password')) {
                throw new Error(t('validation.mismatch', '两次输入的密码不一致'));
              }
            },
          }),
        ]}
      >
        <Password
          size="large"
          prefix={<LockOutlined className="auth-input-icon" />}
          placeholder={t('fields.confirm', '确认密码')}
          aria-label={t('fields.confirm', '确认密码')}
          autoComplete="new-password"
          data-testid={`${testId}-confirm`}
        />
      </Form.Item>
    </>
  );
}

/** Optional on the server (the account is then named after the phone); checked like any name when given. */
export function UserNameField({ testId }: { testId: string }) {
  const { t } = useTranslation('auth');
  return (
    <Form.Item
      name="userName"
      validateTrigger="onBlur"
      rules={[
        {
          validator: async (_rule, value: unknown) => {
            // empty is fine; anything else must pass the server's name rule
            if (typeof value !== 'string' || value.trim() === '') return;
            if (checkName(value.trim())) {
              throw new Error(t('validation.nameTooLong', '名称长度不能超过25个字符'));
            }
          },
        },
      ]}
    >
      <Input
        size="large"
        prefix={<UserOutlined className="auth-input-icon" />}
        placeholder={t('fields.userNameOptional', '用户名（选填）')}
        aria-label={t('fields.userName', '用户名')}
        count={NAME_COUNT}
        autoComplete="nickname"
        data-testid={`${testId}-username`}
      />
    </Form.Item>
  );
}
