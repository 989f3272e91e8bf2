/**
 * What a live page (a screen, a flow chart) says above its drawing: the device is offline (its
 * values are the last received and grey as they age), the values cannot be fetched (retrying),
 * and how many bound points the person may not see.
 */
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

export function LiveBanners({
  online,
  failed,
  hidden,
  offlineText,
  testIdPrefix,
}: {
  online: boolean;
  failed: boolean;
  hidden: number;
  /** the page's own words for an offline device */
  offlineText: string;
  /** `screen` → screen-offline, screen-values-failed */
  testIdPrefix: string;
}) {
  const { t } = useTranslation('screens');
  return (
    <>
      {!online ? (
        <Alert
          type="warning"
          showIcon
          className="scr-banner"
          data-testid={`${testIdPrefix}-offline`}
          title={offlineText}
        />
      ) : null}
      {failed ? (
        <Alert
          type="error"
          showIcon
          className="scr-banner"
          data-testid={`${testIdPrefix}-values-failed`}
          title={t('show.valuesFailed', '无法获取最新数值，正在重试；数值过期后将以灰色显示。')}
        />
      ) : null}
      {hidden > 0 ? (
        <Alert
          type="info"
          showIcon
          className="scr-banner"
          title={t('show.hidden', '{{count}} 个数据点因无查看权限未显示。', { count: hidden })}
        />
      ) : null}
    </>
  );
}
