import { BankOutlined, CheckOutlined, DownOutlined } from '@ant-design/icons';
import { App, Button, Dropdown } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { request } from '../http/client';
import { queryClient } from '../query';
import { HOME_PATH } from '../router/build';
import { permitted } from '../router/permitted';
import { session, useSession } from '../store/session';
import { tags } from './tags';

/**
 * Only for people in several companies. Switching changes the menu codes, so the user record
 * is dropped (the router refetches it and rebuilds the routes once) and the app goes home.
 */
export function CompanySwitcher() {
  const { t } = useTranslation('app');
  const { user, company } = useSession();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const companies = user?.companies ?? [];
  if (companies.length < 2) return null;
  const current = companies.find((c) => c.id === user?.companyId);
  const label = company?.displayName || current?.displayName || current?.name || '';

  const switchTo = async (companyId: number) => {
    if (companyId === user?.companyId) return;
    setBusy(true);
    try {
      const envelope = await request<null>({
        method: 'POST',
        url: '/company/switchCompany',
        data: { companyId },
      });
      message.success(envelope.message);
      navigate(HOME_PATH, { replace: true });
      // no user record: the router fetches it and builds the routes once from the new codes.
      // Dropped before the cache: a card still on the page (the home's alarms and boards) that
      // saw its data cleared while it still had the old codes asked the new company for it,
      // and was refused
      session.set({ user: null, company: null });
      permitted.reset(HOME_PATH);
      tags.reset();
      queryClient.clear();
    } catch {
      // the client showed the error
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: companies.map((c) => ({
          key: String(c.id),
          icon:
            c.id === user?.companyId ? (
              <CheckOutlined />
            ) : (
              <span style={{ width: 14, display: 'inline-block' }} />
            ),
          label: c.displayName || c.name,
        })),
        onClick: ({ key }) => void switchTo(Number(key)),
      }}
    >
      <Button
        type="text"
        loading={busy}
        icon={<BankOutlined />}
        data-testid="company-switcher"
        title={t('navbar.switchCompany', '切换公司')}
      >
        <span className="navbar-label navbar-company">{label}</span>
        <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
}
