import { Card, Empty, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../shared/LoadFailed';
import { formatTime } from '../../../shared/time';
import { LIVE_REFRESH_MS, useLive } from '../api';
import { num, pointUnit } from '../format';

/** Readings older than this are shown as stale, never as if live. */
const STALE_MS = 30 * 60_000;

/** The newest value of each bound point with its time, read again every few seconds. */
export function LivePanel({ meterId }: { meterId: number }) {
  const { t } = useTranslation('meters');
  const live = useLive(meterId, true);
  return (
    <Card
      title={t('live.title', '实时值')}
      className="meter-card"
      data-testid="meter-live"
      extra={
        <Typography.Text type="secondary" className="meter-live-note">
          {t('live.every', '每 {{seconds}} 秒刷新', { seconds: LIVE_REFRESH_MS / 1000 })}
        </Typography.Text>
      }
    >
      {live.isError ? (
        <LoadFailed onRetry={() => live.refetch()} />
      ) : !live.data ? (
        <Skeleton active />
      ) : live.data.points.length === 0 ? (
        <Empty description={t('live.none', '没有绑定测点')} />
      ) : (
        <div className="meter-live-grid">
          {live.data.points.map((p) => {
            const stale = p.at == null || Date.now() - Date.parse(p.at) > STALE_MS;
            const unit = pointUnit(p.point);
            return (
              <div className="meter-live-cell" key={p.point} data-testid={`meter-live-${p.point}`}>
                <Typography.Text type="secondary" className="meter-live-label">
                  {t(`points.${p.point}`)}
                </Typography.Text>
                <div className="meter-live-value">
                  {num(p.value, p.point.startsWith('powerFactor') ? 3 : 2)}
                  {p.value != null && unit ? <span className="meter-live-unit"> {unit}</span> : null}
                </div>
                <div className="meter-live-time">
                  {p.at ? formatTime(p.at) : t('live.never', '尚无读数')}
                  {p.at && stale ? (
                    <Tag color="default" className="meter-stale">
                      {t('live.stale', '非最新')}
                    </Tag>
                  ) : null}
                </div>
              </div>
            );
          })}
        </div>
      )}
    </Card>
  );
}
