/**
 * /login, the only page reachable without a token. Three ways in (password, SMS code, scan
 * code) plus registration and password reset as sub-views of the same page (?view=register,
 * ?view=forgot, so the browser's back button returns to the login form and `redirect`
 * survives the detour).
 */
import { ArrowLeftOutlined, LockOutlined, MessageOutlined, QrcodeOutlined } from '@ant-design/icons';
import { Button, Spin } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { LangSwitch } from '../../../app/layout/LangSwitch';
import { safeRedirect } from '../api';
import { AuthTabs } from '../components/AuthTabs';
import { BrandMark } from '../components/BrandMark';
import { BrandPanel } from '../components/BrandPanel';
import { PasswordLoginForm } from '../components/PasswordLoginForm';
import { QR_FRAME } from '../components/qrFrame';
import { SmsLoginForm } from '../components/SmsLoginForm';
import '../auth.css';

// what the first view does not show loads when it is opened: registration, password reset
// and the scan-code tab (with its QR drawing and antd's Typography)
const RegisterForm = lazy(() =>
  import('../components/RegisterForm').then((m) => ({ default: m.RegisterForm })),
);
const ForgotPasswordForm = lazy(() =>
  import('../components/ForgotPasswordForm').then((m) => ({ default: m.ForgotPasswordForm })),
);
const ScanLogin = lazy(() => import('../components/ScanLogin').then((m) => ({ default: m.ScanLogin })));

/** While a sub-view's code loads: the spinner the view itself shows while it starts. */
function ViewLoading() {
  return (
    <div className="auth-view-loading">
      <Spin />
    </div>
  );
}

/** While the scan tab's code loads: the empty QR frame with its spinner, as the tab starts. */
function ScanLoading() {
  return (
    <div className="auth-scan">
      <div className="auth-qr-frame" style={QR_FRAME}>
        <Spin />
      </div>
    </div>
  );
}

type View = 'login' | 'register' | 'forgot';
type Tab = 'password' | 'sms' | 'scan';

function viewOf(value: string | null): View {
  return value === 'register' || value === 'forgot' ? value : 'login';
}

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const [params, setParams] = useSearchParams();
  const view = viewOf(params.get('view'));
  const [tab, setTab] = useState<Tab>('password');
  const [phone, setPhone] = useState('');

  // an unsafe `redirect` (another origin) is dropped from the address at once, so nothing
  // that reads it after login, here or in the router, can follow it
  const redirect = params.get('redirect');
  useEffect(() => {
    if (redirect != null && safeRedirect(redirect) !== redirect) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('redirect');
          return next;
        },
        { replace: true },
      );
    }
  }, [redirect, setParams]);

  const go = (next: View, replace = false) => {
    const search = new URLSearchParams(params);
    if (next === 'login') search.delete('view');
    else search.set('view', next);
    setParams(search, { replace });
  };

  const passwordReset = (resetPhone: string) => {
    setPhone(resetPhone);
    setTab('password');
    go('login', true);
  };

  const heading: Record<View, { title: string; subtitle: string }> = {
    login: {
      title: t('login.title', '欢迎登录'),
      subtitle: t('login.subtitle', '登录你的智慧数据平台账号'),
    },
    register: {
      title: t('register.title', '注册账号'),
      subtitle: t('register.subtitle', '使用手机号注册，注册后可创建公司或接受邀请加入公司'),
    },
    forgot: {
      title: t('forgot.title', '找回密码'),
      subtitle: t('forgot.subtitle', '验证手机号后设置新密码，已登录的设备将全部退出'),
    },
  };

  return (
    <div className="auth-page" data-testid="login-page">
      <BrandPanel />
      <main className="auth-main">
        <div className="auth-topbar">
          <div className="auth-mobile-brand">
            <BrandMark size={32} />
            <span>{t('brand.name', '智慧数据平台')}</span>
          </div>
          <LangSwitch />
        </div>
        <div className="auth-center">
          <section className="auth-card" data-testid={`auth-view-${view}`}>
            {view !== 'login' ? (
              <Button
                type="link"
                className="auth-back auth-link"
                icon={<ArrowLeftOutlined />}
                onClick={() => go('login')}
                data-testid="back-to-login"
              >
                {t('common.backToLogin', '返回登录')}
              </Button>
            ) : null}
            <h2 className="auth-card-title">{heading[view].title}</h2>
            <p className="auth-card-subtitle">{heading[view].subtitle}</p>

            {view === 'login' ? (
              <>
                <AuthTabs<Tab>
                  className="auth-tabs"
                  activeKey={tab}
                  onChange={setTab}
                  items={[
                    {
                      key: 'password',
                      icon: <LockOutlined />,
                      label: <span data-testid="tab-password">{t('tabs.password', '密码登录')}</span>,
                      children: (
                        <PasswordLoginForm
                          phone={phone}
                          onPhoneChange={setPhone}
                          onForgot={() => go('forgot')}
                        />
                      ),
                    },
                    {
                      key: 'sms',
                      icon: <MessageOutlined />,
                      label: <span data-testid="tab-sms">{t('tabs.sms', '验证码登录')}</span>,
                      children: <SmsLoginForm phone={phone} onPhoneChange={setPhone} />,
                    },
                    {
                      key: 'scan',
                      icon: <QrcodeOutlined />,
                      label: <span data-testid="tab-scan">{t('tabs.scan', '扫码登录')}</span>,
                      children: (
                        <Suspense fallback={<ScanLoading />}>
                          <ScanLogin active={tab === 'scan'} phone={phone} />
                        </Suspense>
                      ),
                    },
                  ]}
                />
                <div className="auth-switch-line">
                  <span>{t('login.noAccount', '还没有账号？')}</span>
                  <Button
                    type="link"
                    className="auth-link"
                    onClick={() => go('register')}
                    data-testid="to-register"
                  >
                    {t('login.register', '立即注册')}
                  </Button>
                </div>
              </>
            ) : null}

            {view === 'register' ? (
              <>
                <Suspense fallback={<ViewLoading />}>
                  <RegisterForm phone={phone} onPhoneChange={setPhone} />
                </Suspense>
                <div className="auth-switch-line">
                  <span>{t('register.haveAccount', '已有账号？')}</span>
                  <Button type="link" className="auth-link" onClick={() => go('login')}>
                    {t('register.toLogin', '直接登录')}
                  </Button>
                </div>
              </>
            ) : null}

            {view === 'forgot' ? (
              <Suspense fallback={<ViewLoading />}>
                <ForgotPasswordForm phone={phone} onPhoneChange={setPhone} onDone={passwordReset} />
              </Suspense>
            ) : null}
          </section>
        </div>
        <footer className="auth-footer">
          © {new Date().getFullYear()} {t('brand.name', '智慧数据平台')}
        </footer>
      </main>
    </div>
  );
}
