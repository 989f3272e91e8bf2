/**
 * Home page card (issue 11 point 8): the open alarms this person was told of (a recipient, or a
 * delegate of one), by level and the newest few, live through the alarm socket; links to the log
 * and the wall. Only for holders of cs_info: without it the card makes no call at all.
 */
import { Card, Empty, List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSession } from '../../../app/store/session';
import { formatMinute } from '../../../shared/time';
import { useOpenAlarms, useOpenCounts } from '../api';
import { LEVEL_COLOURS, LEVELS } from '../levels';
import { useAlarmFeed } from '../live';

const NEWEST = 5;

export function MyAlarmsCard() {
  const { user } = useSession();
  const allowed = user?.menuCode?.includes('cs_info') ?? false;
  return allowed ? <MyAlarms /> : null;
}

function MyAlarms() {
  const { t } = useTranslation('alarms');
  useAlarmFeed({ enabled: true });
  const counts = useOpenCounts({ mine: true });
  const list = useOpenAlarms({ mine: true, pageSize: NEWEST });
  const rows = list.data?.list ?? [];
  const total = list.data?.total ?? 0;
  return (
    <Card
      title={t('home.title')}
      variant="borderless"
      data-testid="home-my-alarms"
      extra={
        <Space size="middle">
          <Link to="/cloudSurveillance/alertLog">{t('home.log')}</Link>
          <Link to="/alertdashboard">{t('home.wall')}</Link>
        </Space>
      }
    >
      <Space size={[8, 8]} wrap style={{ marginBottom: 12 }}>
        {LEVELS.map((level) => (
          <Tag key={level} color={LEVEL_COLOURS[level]} data-testid={`home-alarm-count-${level}`}>
            {t('log.level', { level })}: {counts.data ? counts.data[String(level) as '1'] : '–'}
          </Tag>
        ))}
      </Space>
      {list.data && rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.none')} />
      ) : (
        <List
          size="small"
          loading={list.isLoading}
          dataSource={rows}
          footer={
            total > rows.length ? (
              <Typography.Text type="secondary">{t('home.more', { total })}</Typography.Text>
            ) : null
          }
          renderItem={(a) => (
            <List.Item
              data-testid={`home-alarm-${a.id}`}
              actions={[
                <Typography.Text key="at" type="secondary">
                  {formatMinute(a.firedAt)}
                </Typography.Text>,
              ]}
            >
              <Space size={6} wrap>
                <Tag color={LEVEL_COLOURS[a.level]}>{t('log.level', { level: a.level })}</Tag>
                <Typography.Text strong>{a.name}</Typography.Text>
                <Typography.Text type="secondary">
                  {[a.itemName ?? a.deviceName, a.value].filter((v) => v != null).join(' ')}
                </Typography.Text>
                {a.status === 'acknowledged' ? <Tag>{t('status.acknowledged')}</Tag> : null}
              </Space>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
