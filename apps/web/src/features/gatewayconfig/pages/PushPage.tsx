import { CloudUploadOutlined, EditOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Result, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../../../app/http/client';
import { useSession } from '../../../app/store/session';
import { formatTime } from '../../../shared/time';
import { ZoneHint } from '../../../shared/ZoneHint';
import {
  configApi,
  configKeys,
  FINAL_PUSH_STATES,
  type PushState,
  type PushView,
  usePush,
  usePushes,
  usePushState,
} from '../api';
import { ConfigState } from '../components/ConfigState';
import { pushBlocked } from '../components/EditorHeader';
import { PushProgress } from '../components/PushProgress';
import { configPaths } from '../paths';
import '../gatewayconfig.css';

const STATE_COLOR: Record<PushState, string> = {
  waiting: 'processing',
  applied: 'processing',
  committed: 'success',
  unchanged: 'success',
  rejected: 'error',
  rolledBack: 'warning',
  noAnswer: 'error',
};

/**
 * /upgradeCfg/:deviceId/:deviceName — pushing a gateway's configuration: what it runs against
 * the latest saved version, the push in progress, and every push with its outcome. Usable on a
 * phone (pushing needs no editing).
 */
export default function PushPage() {
  const { t } = useTranslation('gatewayconfig');
  const { notification, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const id = Number(useParams().deviceId);
  const view = usePushState(id);
  const [page, setPage] = useState(1);
  const [pushing, setPushing] = useState(false);
  const last = view.data?.lastPush ?? null;
  const lastLive = last != null && !FINAL_PUSH_STATES.includes(last.state);
  const current = usePush(id, last?.id ?? null);
  const currentLive = current.data != null && !FINAL_PUSH_STATES.includes(current.data.state);
  const pushes = usePushes(id, page, lastLive || currentLive);
  // a push that just ended: its row and the gateway's state are read again
  const ended = current.data && !currentLive ? `${current.data.id}:${current.data.state}` : null;
  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ queryKey: configKeys.all });
  }, [ended, queryClient]);

  if (!Number.isInteger(id) || id <= 0) return <Result status="404" title={t('badLink')} />;
  if (view.isLoading) return <ConfigState kind="loading" />;
  if (!view.data) return <ConfigState kind="notFound" />;
  const data = view.data;
  const device = data.device;
  const head = data.head;
  const blocked =
    pushBlocked(
      data,
      user?.menuCode.some((code) => code === 'dm_list' || code === 'cd_device') === true,
      t,
    ) ?? (head ? null : t('push.noVersion'));
  // the latest version runs when the gateway says so, or when the last push of it found the
  // gateway running the same hash already (it then keeps naming its older version)
  const inSync =
    head != null &&
    device.runningHash != null &&
    (device.runningVersion === head.version ||
      (last?.version === head.version &&
        (last.state === 'committed' || last.state === 'unchanged') &&
        last.hash === device.runningHash));
  const shownPush = current.data ?? last;

  const push = () =>
    modal.confirm({
      title: t('push.title'),
      content: (
        <>
          <p>{t('push.confirm', { name: device.name })}</p>
          <Typography.Text type="secondary">
            {t('push.confirmHint', { seconds: data.confirmWithin })}
          </Typography.Text>
        </>
      ),
      okText: t('editor.push'),
      onOk: async () => {
        setPushing(true);
        try {
          await configApi.push(id, head?.version ?? null);
          await queryClient.invalidateQueries({ queryKey: configKeys.all });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          notification.error({
            title: t('http.tip', { ns: 'app', defaultValue: '提示' }),
            description: error.message,
          });
        } finally {
          setPushing(false);
        }
      },
    });

  return (
    <div className="gc-push-screen">
      <Space orientation="vertical" size={16} className="gc-push-page" data-testid="gc-push-page">
        <Card variant="borderless">
          <div className="gc-header">
            <div className="gc-title">
              <Typography.Title level={4} className="gc-title-text">
                {t('push.title')} · {device.name}
              </Typography.Title>
              <Space size={[4, 4]} wrap>
                <Typography.Text type="secondary" copyable>
                  {device.serialNumber}
                </Typography.Text>
                {!device.bound ? (
                  <Tag>{t('editor.notBound')}</Tag>
                ) : (
                  <Tag color={device.online ? 'success' : 'default'}>
                    {device.online ? t('editor.online') : t('editor.offline')}
                  </Tag>
                )}
                <Tag color="blue">
                  {head ? t('push.savedVersion', { version: head.version }) : t('editor.neverSaved')}
                </Tag>
                <Typography.Text type="secondary" className="gc-small">
                  {device.runningVersion != null
                    ? t('editor.running', { version: device.runningVersion })
                    : t('editor.runningUnknown')}
                </Typography.Text>
              </Space>
            </div>
            <Space wrap>
              <Tooltip title={blocked}>
                <Button
                  type="primary"
                  icon={<CloudUploadOutlined />}
                  disabled={blocked != null}
                  loading={pushing}
                  onClick={push}
                  data-testid="gc-push-latest"
                >
                  {t('push.pushLatest')}
                </Button>
              </Tooltip>
              {user?.menuCode.includes('sd_capsule') && (
                <Button icon={<EditOutlined />} onClick={() => navigate(configPaths.editor(device.id))}>
                  {t('push.openEditor')}
                </Button>
              )}
            </Space>
          </div>
          {head && device.runningHash != null && (
            <Alert
              className="gc-note"
              type={inSync ? 'success' : 'warning'}
              showIcon
              title={inSync ? t('push.inSync') : t('push.outOfSync')}
            />
          )}
          {shownPush && (
            <div className="gc-push-current">
              <PushProgress push={shownPush} />
            </div>
          )}
        </Card>
        <Card variant="borderless" title={t('push.history')}>
          <Table<PushView>
            rowKey="id"
            size="small"
            loading={pushes.isLoading}
            dataSource={pushes.data?.list ?? []}
            locale={{
              emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('push.empty')} />,
            }}
            scroll={{ x: 720 }}
            pagination={{
              current: page,
              pageSize: 10,
              total: pushes.data?.total ?? 0,
              onChange: setPage,
              hideOnSinglePage: true,
            }}
            expandable={{
              rowExpandable: (row) => row.errors.length > 0,
              expandedRowRender: (row) => (
                <ul className="gc-push-errors">
                  {row.errors.map((e, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the gateway's list, shown as it came
                    <li key={i}>
                      {[e.node, e.field].filter(Boolean).join(' · ')}
                      {e.node || e.field ? ': ' : ''}
                      {e.message}
                    </li>
                  ))}
                </ul>
              ),
            }}
            columns={[
              { title: t('push.version'), dataIndex: 'version', width: 80, render: (v: number) => `v${v}` },
              {
                title: t('push.state'),
                dataIndex: 'state',
                width: 220,
                render: (state: PushState) => (
                  <Tag color={STATE_COLOR[state]} data-testid="gc-push-row-state" data-state={state}>
                    {t(`push.states.${state}`)}
                  </Tag>
                ),
              },
              {
                title: t('push.pushedBy'),
                dataIndex: 'pushedBy',
                width: 110,
                render: (p: PushView['pushedBy']) => p?.name ?? '—',
              },
              {
                title: (
                  <>
                    {t('push.pushedAt')} <ZoneHint />
                  </>
                ),
                dataIndex: 'pushedAt',
                width: 170,
                render: (at: string) => formatTime(at),
              },
              {
                title: t('push.answeredAt'),
                dataIndex: 'answeredAt',
                width: 170,
                render: (at: string | null) => (at ? formatTime(at) : '—'),
              },
              {
                title: t('history.hash'),
                dataIndex: 'hash',
                render: (hash: string) => (
                  <Typography.Text code copyable={{ text: hash }} title={hash}>
                    {hash.slice(0, 8)}
                  </Typography.Text>
                ),
              },
            ]}
          />
        </Card>
      </Space>
    </div>
  );
}
