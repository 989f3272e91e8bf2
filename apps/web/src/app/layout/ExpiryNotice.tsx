import { Alert } from 'antd';
import dayjs from 'dayjs';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatTime } from '../../shared/time';
import { useSession } from '../store/session';
import { storage } from '../store/storage';
import { useLayoutState } from './app-state';

export const MY_ORDERS_PATH = '/user/myorder';
const DAY_MS = 86_400_000;

function dismissKey(userId: number, expiresAt: string): string {
  return `expiryNoticeDismissed:${userId}:${expiresAt}`;
}

/**
 * "Your subscribed service expires on …" when the company's service ends within
 * getUser.expiryNoticeDays days (or has ended). Dismissing is remembered per user and expiry
 * date, so a renewal (a new date) shows the notice again when it nears. On a phone it is one slim
 * line in short words, so it does not push the page down.
 */
export function ExpiryNotice() {
  const { t } = useTranslation('app');
  const { user } = useSession();
  const { mobile } = useLayoutState();
  const expiresAt = user?.serviceExpiresAt;
  const days = user?.expiryNoticeDays;
  if (!user || !expiresAt || days == null) return null;
  const end = dayjs(expiresAt);
  if (!end.isValid()) return null;
  const remaining = end.valueOf() - Date.now();
  if (remaining > days * DAY_MS) return null;
  const key = dismissKey(user.userId, expiresAt);
  if (storage.get<boolean>(key)) return null;
  // the company's date, as every date of the company reads
  const date = formatTime(expiresAt, 'yyyy-MM-dd');
  // the date never breaks across lines
  const text = (
    <Trans
      t={t}
      i18nKey={`${remaining <= 0 ? 'expiry.expired' : 'expiry.notice'}${mobile ? 'Short' : ''}`}
      values={{ date }}
      components={{ date: <span className="nowrap" /> }}
    />
  );
  return (
    <Alert
      className="expiry-notice"
      data-testid="expiry-notice"
      type={remaining <= 0 ? 'error' : 'warning'}
      banner
      showIcon
      closable={{
        'aria-label': t('expiry.dismiss', '关闭提醒'),
        onClose: () => storage.set(key, true),
      }}
      title={
        <span>
          {text}
          <Link to={MY_ORDERS_PATH} className="expiry-notice-link" data-testid="expiry-notice-link">
            {mobile ? t('expiry.renewShort', '我的订单') : t('expiry.renew', '查看我的订单')}
          </Link>
        </span>
      }
    />
  );
}
