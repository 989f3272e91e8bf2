import {
  ArrowLeftOutlined,
  CheckOutlined,
  EditOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  SwapOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { simStateAfter } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Segmented,
  Skeleton,
  Space,
  Spin,
  Table,
  Tag,
  Typography,
} from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatMinute } from '../../../shared/time';
import { type Side, type SimDetail, simApi, simKeys, useSimDetail } from '../api';
import { CARRIER_TAG, formatMb, langOf, STATE_TAG, simCarrierLabel, simPaths, simStateLabel } from '../model';
import { EditSimModal } from './EditSimModal';
import { useSyncErrorLabel } from './labels';
import { UsageBar } from './UsageBar';

// ECharts is large: only this page loads it, and only once the page is open
const UsageChart = lazy(() => import('./UsageChart'));

const RANGES = [7, 31, 90] as const;

/** One card: its facts, usage over time (chart and readings), the gateways it was in, its move. */
export function SimDetailView({ side, id }: { side: Side; id: number }) {
  const { t, i18n } = useTranslation('sims');
  const lang = langOf(i18n.language);
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const syncErrorLabel = useSyncErrorLabel();
  const [days, setDays] = useState<number>(31);
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const detail = useSimDetail(side, id, days);
  const system = side === 'system';
  const refresh = () => void queryClient.invalidateQueries({ queryKey: simKeys.all });

  const back = (
    <Link to={simPaths.list(side)} data-testid="sim-back">
      <ArrowLeftOutlined /> {t('detail.back', '返回列表')}
    </Link>
  );

  if (detail.isError) {
    return (
      <Card variant="borderless" data-testid="sim-detail">
        {back}
        <Alert
          type="error"
          showIcon
          title={t('detail.loadFailed', '无法加载这张 SIM 卡')}
          style={{ marginTop: 12 }}
        />
      </Card>
    );
  }
  if (!detail.data) {
    return (
      <Card variant="borderless" data-testid="sim-detail">
        <Skeleton active />
      </Card>
    );
  }
  const card: SimDetail = detail.data;

  const act = async (key: string, run: () => Promise<{ message: string }>) => {
    setBusy(key);
    try {
      const envelope = await run();
      message.success(envelope.message);
      refresh();
    } catch {
      // the http client showed the error
    } finally {
      setBusy(null);
    }
  };

  const acknowledge = () =>
    modal.confirm({
      title: t('moved.ackConfirm', '确认这张卡已移到 {{to}}？', { to: card.moved?.to }),
      content: t('moved.ackHint', '确认后列表中不再标记“已移动”，这次移动仍记录在卡的网关记录中。'),
      okText: t('common.ok', '确定'),
      cancelText: t('common.cancel', '取消'),
      onOk: () => act('ack', () => simApi.acknowledgeMove(side, card.id)),
    });

  const changeState = (action: 'suspend' | 'resume') =>
    modal.confirm({
      title:
        action === 'suspend'
          ? t('state.suspendConfirm', '通过运营商停用这张卡？')
          : t('state.resumeConfirm', '通过运营商恢复这张卡？'),
      content:
        action === 'suspend'
          ? t('state.suspendHint', '停用后所在网关将无法联网，直到恢复。')
          : t('state.resumeHint', '恢复后卡重新可以使用数据流量。'),
      okText: t('common.ok', '确定'),
      okButtonProps: { danger: action === 'suspend' },
      cancelText: t('common.cancel', '取消'),
      onOk: () => act(action, () => simApi.setState(card.id, action)),
    });

  const holderSince = card.holder?.since ? formatMinute(card.holder.since) : null;

  return (
    <div className="sim-detail" data-testid="sim-detail">
      <Card variant="borderless">
        <div className="sim-detail-top">{back}</div>
        <div className="sim-header">
          <Space wrap size={8} align="center">
            <Typography.Title level={4} className="sim-mono sim-detail-title" data-testid="sim-detail-iccid">
              {card.iccid}
            </Typography.Title>
            <Tag color={CARRIER_TAG[card.carrier]}>{simCarrierLabel(card.carrier, lang)}</Tag>
            <Tag color={STATE_TAG[card.state]} data-testid="sim-detail-state">
              {simStateLabel(card.state, lang)}
            </Tag>
          </Space>
          <Space wrap size={8}>
            <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="sim-detail-edit">
              {t('common.edit', '编辑')}
            </Button>
            {system ? (
              <>
                <Button
                  icon={<SyncOutlined />}
                  loading={busy === 'sync'}
                  onClick={() => act('sync', () => simApi.sync([card.id]))}
                  data-testid="sim-detail-sync"
                >
                  {t('sync.one', '同步')}
                </Button>
                {simStateAfter(card.state, 'suspend').ok ? (
                  <Button
                    danger
                    icon={<PauseCircleOutlined />}
                    loading={busy === 'suspend'}
                    onClick={() => changeState('suspend')}
                    data-testid="sim-suspend"
                  >
                    {t('state.suspend', '停用')}
                  </Button>
                ) : null}
                {simStateAfter(card.state, 'resume').ok ? (
                  <Button
                    icon={<PlayCircleOutlined />}
                    loading={busy === 'resume'}
                    onClick={() => changeState('resume')}
                    data-testid="sim-resume"
                  >
                    {t('state.resume', '恢复')}
                  </Button>
                ) : null}
              </>
            ) : null}
          </Space>
        </div>
        {card.moved ? (
          <Alert
            type="warning"
            showIcon
            icon={<SwapOutlined />}
            className="sim-moved-alert"
            data-testid="sim-moved-alert"
            title={t('moved.alert', '这张卡已从网关 {{from}} 移到 {{to}}（{{at}}）', {
              from: card.moved.from,
              to: card.moved.to,
              at: formatMinute(card.moved.at),
            })}
            description={
              <div>
                <div>{t('moved.alertHint', '如果这是有意更换，请确认；否则请检查两台网关。')}</div>
                <Button
                  size="small"
                  icon={<CheckOutlined />}
                  loading={busy === 'ack'}
                  onClick={acknowledge}
                  className="sim-ack"
                  data-testid="sim-ack"
                >
                  {t('moved.ack', '确认移动')}
                </Button>
              </div>
            }
          />
        ) : null}
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 1, md: 2, lg: 3 }}
          className="sim-facts"
          data-testid="sim-facts"
          items={[
            {
              key: 'usage',
              label: t('fields.usage', '本月用量'),
              children: <UsageBar usedMb={card.usedMb} planMb={card.planMb} percent={card.usagePercent} />,
            },
            {
              key: 'plan',
              label: t('fields.plan', '套餐'),
              children: card.planMb === null ? '—' : formatMb(card.planMb),
            },
            {
              key: 'asOf',
              label: t('fields.asOf', '用量截至'),
              children: card.usageAsOf ? formatMinute(card.usageAsOf) : '—',
            },
            { key: 'msisdn', label: t('fields.msisdn', '号码'), children: card.msisdn ?? '—' },
            {
              key: 'gateway',
              label: t('fields.gateway', '所在网关'),
              children: card.holder ? (
                <span>
                  <span className="sim-mono">{card.holder.serialNumber}</span>
                  {holderSince ? (
                    <span className="sim-muted"> {t('detail.since', '自 {{at}}', { at: holderSince })}</span>
                  ) : null}
                </span>
              ) : (
                t('fields.noGateway', '未发现')
              ),
            },
            {
              key: 'synced',
              label: t('fields.synced', '上次同步'),
              children: (
                <span>
                  {card.syncedAt ? formatMinute(card.syncedAt) : '—'}
                  {card.syncError ? (
                    <Tag color="warning" style={{ marginLeft: 6 }}>
                      {syncErrorLabel(card.syncError)}
                    </Tag>
                  ) : null}
                </span>
              ),
            },
            ...(system
              ? [
                  {
                    key: 'company',
                    label: t('fields.company', '公司'),
                    children: card.company ? card.company.name : <Tag>{t('fields.stock', '平台库存')}</Tag>,
                  },
                ]
              : []),
            { key: 'notes', label: t('fields.notes', '备注'), children: card.notes || '—' },
          ]}
        />
      </Card>

      <Card
        variant="borderless"
        title={t('detail.usageTitle', '用量变化')}
        extra={
          <Segmented
            size="small"
            value={days}
            onChange={(v) => setDays(Number(v))}
            options={RANGES.map((d) => ({ value: d, label: t('detail.days', '{{d}} 天', { d }) }))}
            data-testid="sim-range"
          />
        }
        data-testid="sim-usage-card"
      >
        {card.usage.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={t('detail.noReadings', '这段时间没有用量记录')}
          />
        ) : (
          <>
            <Suspense fallback={<Spin className="sim-chart-loading" />}>
              <UsageChart readings={card.usage} planMb={card.planMb} lang={lang} />
            </Suspense>
            <Table
              size="small"
              rowKey="asOf"
              className="sim-readings"
              dataSource={[...card.usage].reverse()}
              pagination={{ pageSize: 8, size: 'small', showSizeChanger: false }}
              columns={[
                {
                  title: t('detail.readingAt', '时间'),
                  dataIndex: 'asOf',
                  render: (at: string) => formatMinute(at),
                },
                {
                  title: t('detail.readingUsed', '本月已用'),
                  dataIndex: 'usedMb',
                  render: (mb: number) => formatMb(mb),
                },
                {
                  title: t('fields.state', '状态'),
                  dataIndex: 'state',
                  render: (state: number) => <Tag color={STATE_TAG[state]}>{simStateLabel(state, lang)}</Tag>,
                },
              ]}
              data-testid="sim-readings"
            />
          </>
        )}
      </Card>

      <Card variant="borderless" title={t('detail.gatewaysTitle', '所在网关记录')} data-testid="sim-gateways">
        <Table
          size="small"
          rowKey={(r) => `${r.serialNumber}-${r.firstSeen}`}
          dataSource={card.sightings}
          pagination={false}
          scroll={{ x: 480 }}
          locale={{
            emptyText: (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={t('detail.noGateways', '还没有网关报告这张卡')}
              />
            ),
          }}
          columns={[
            {
              title: t('detail.gatewayColumn', '网关'),
              dataIndex: 'serialNumber',
              render: (sn: string, row, index) => (
                <Space size={6}>
                  <span className="sim-mono">{sn}</span>
                  {index === 0 && card.holder?.serialNumber === sn ? (
                    <Tag color="green">{t('detail.current', '当前')}</Tag>
                  ) : null}
                  {row.firstSeen === card.moved?.at ? (
                    <Tag color="warning">{t('moved.tag', '已移动')}</Tag>
                  ) : null}
                </Space>
              ),
            },
            {
              title: t('detail.firstSeen', '首次报告'),
              dataIndex: 'firstSeen',
              render: (at: string) => formatMinute(at),
            },
            {
              title: t('detail.lastSeen', '最近报告'),
              dataIndex: 'lastSeen',
              render: (at: string) => formatMinute(at),
            },
          ]}
        />
        {card.lastMove && !card.moved ? (
          <div className="sim-muted sim-last-move" data-testid="sim-last-move">
            {t(
              'moved.acknowledged',
              '最近一次移动：{{at}} 从 {{from}} 移到 {{to}}，{{who}} 于 {{ackAt}} 确认',
              {
                at: formatMinute(card.lastMove.at),
                from: card.lastMove.from,
                to: card.lastMove.to,
                who: card.lastMove.acknowledgedBy ?? '—',
                ackAt: card.lastMove.acknowledgedAt ? formatMinute(card.lastMove.acknowledgedAt) : '—',
              },
            )}
          </div>
        ) : null}
      </Card>
      <EditSimModal
        side={side}
        card={editing ? card : null}
        onClose={() => setEditing(false)}
        onDone={refresh}
      />
    </div>
  );
}
