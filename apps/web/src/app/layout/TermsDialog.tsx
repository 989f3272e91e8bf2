import { App, Button, Checkbox, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { request } from '../http/client';
import { LOGIN_PATH } from '../router/build';
import { loadSession } from '../store/loader';
import { logout } from '../store/logout';
import { useSession } from '../store/session';

const SECTIONS = ['privacy', 'data', 'liability', 'termination'] as const;

/**
 * First-time terms of use (spec point 1/5): privacy, user data rules, liability, termination.
 * It cannot be dismissed: the person ticks the agreement and confirms, or logs out.
 */
export function TermsDialog() {
  const { t } = useTranslation('app');
  const { user } = useSession();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const open = Boolean(user && user.termsAccepted === false);

  const confirm = async () => {
    setBusy(true);
    try {
      const envelope = await request<unknown>({
        method: 'POST',
        url: '/user/acceptTerms',
        data: { accepted: true },
      });
      await loadSession();
      message.success(envelope.message);
    } catch {
      // the client showed the error; the dialog stays
    } finally {
      setBusy(false);
    }
  };

  const leave = async () => {
    await logout();
    navigate(LOGIN_PATH, { replace: true });
  };

  return (
    <Modal
      open={open}
      title={t('terms.title', '用户服务协议与隐私政策')}
      closable={false}
      maskClosable={false}
      keyboard={false}
      width={720}
      centered
      data-testid="terms-dialog"
      footer={[
        <Button key="logout" onClick={leave} data-testid="terms-logout">
          {t('terms.logout', '退出登录')}
        </Button>,
        <Button
          key="confirm"
          type="primary"
          disabled={!agreed}
          loading={busy}
          onClick={confirm}
          data-testid="terms-confirm"
        >
          {t('terms.confirm', '确认')}
        </Button>,
      ]}
    >
      <div className="terms-body" data-testid="terms-body">
        <Typography.Paragraph type="secondary">{t('terms.intro')}</Typography.Paragraph>
        {SECTIONS.map((section, index) => (
          <section key={section}>
            <Typography.Title level={5}>
              {index + 1}. {t(`terms.${section}.title`)}
            </Typography.Title>
            {t(`terms.${section}.body`)
              .split('\n')
              .map((paragraph) => (
                <Typography.Paragraph key={paragraph}>{paragraph}</Typography.Paragraph>
              ))}
          </section>
        ))}
      </div>
      <Checkbox checked={agreed} onChange={(e) => setAgreed(e.target.checked)} data-testid="terms-agree">
        {t('terms.agree', '我已阅读并同意')}
      </Checkbox>
    </Modal>
  );
}
