/**
 * /upgradeVersion/:nextVersion/:currentVersion/:serialNumber (dm_list) — a gateway's firmware
 * upgrade: the gateway (serial number, name, the version it runs, online), the versions offered
 * with their notes, size and SHA-256, Upgrade (refusals named with the spec's words), then the
 * upgrade's steps live, how it ended (success names the new version; a failure its reason, with
 * Retry), and the gateway's upgrade history. '-' as nextVersion: the person chooses here.
 * The page reads the live upgrade when it opens, so a reload mid-upgrade shows it again.
 */
import { CloudDownloadOutlined } from '@ant-design/icons';
import { messageFor, SUCCESS_MESSAGES } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Badge,
  Button,
  Card,
  Descriptions,
  Flex,
  Grid,
  Result,
  Space,
  Spin,
  Tooltip,
  Typography,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { ApiError } from '../../../app/http/client';
import { currentLang } from '../../../app/i18n';
import {
  type DeviceFirmware,
  firmwareApi,
  firmwareKeys,
  isLive,
  type Upgrade,
  useDeviceFirmware,
} from '../api';
import { UpgradeHistory } from '../components/UpgradeHistory';
import { UpgradeProgress } from '../components/UpgradeProgress';
import { VersionList } from '../components/VersionList';
import { useUpgradeLive } from '../live';
import { param } from '../paths';
import type { Step } from '../states';
import '../firmware.css';

export default function UpgradeVersionPage() {
  const { t } = useTranslation('firmware');
  const { modal, message } = App.useApp();
  const client = useQueryClient();
  const narrow = Grid.useBreakpoint().md !== true;
  const params = useParams();
  const sn = param(params.serialNumber);
  const wanted = param(params.nextVersion);
  const ref = sn ? { serialNumber: sn } : null;
  const [liveNow, setLiveNow] = useState(false);
  const view = useDeviceFirmware(ref, liveNow ? 2000 : 10_000);
  const data = view.data;
  const upgrade = data?.upgrade ?? null;
  const live = upgrade != null && isLive(upgrade);
  const [chosen, setChosen] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const lastSeen = useRef<{ id: number; step?: Step; state?: string }>({ id: 0 });
  const { connected } = useUpgradeLive();

  useEffect(() => setLiveNow(live), [live]);

  // the live step seen last (places a power loss on its step), and the end told once, as it happens
  useEffect(() => {
    if (!upgrade) return;
    const seen = lastSeen.current;
    if (seen.id !== upgrade.id) {
      lastSeen.current = {
        id: upgrade.id,
        state: upgrade.state,
        step: isLive(upgrade) ? (upgrade.state as Step) : undefined,
      };
      return;
    }
    if (
      seen.state &&
      seen.state !== upgrade.state &&
      !isLive(upgrade) &&
      seen.state !== 'success' &&
      seen.state !== 'failed'
    ) {
      const lang = currentLang();
      if (upgrade.state === 'success') void message.success(SUCCESS_MESSAGES.firmwareUpdated[lang]);
      else void message.error(messageFor('firmwareFailed', lang));
    }
    seen.state = upgrade.state;
    if (isLive(upgrade)) seen.step = upgrade.state as Step;
  }, [upgrade, message]);

  if (!sn) return <Result status="404" title={t('page.badLink')} />;
  if (view.isLoading) return <Spin className="fw-loading" />;
  if (!data) {
    const text =
      view.error instanceof ApiError && view.error.code !== 40400
        ? view.error.message
        : t('page.notFound', { sn });
    return <Result status="warning" title={text} data-testid="fw-not-found" />;
  }

  const { device, versions } = data;
  const canWrite = device.level >= 2;
  const preferred =
    versions.find((v) => v.version === wanted && v.version !== device.firmware) ??
    versions.find((v) => v.newer && v.version !== device.firmware) ??
    null;
  const selectedId = chosen ?? preferred?.id ?? null;
  const selected = versions.find((v) => v.id === selectedId) ?? null;
  const blocked = !canWrite
    ? t('upgrade.needWrite')
    : live
      ? t('upgrade.busy')
      : !selected
        ? t('versions.choose')
        : selected.version === device.firmware
          ? t('upgrade.sameVersion')
          : null;

  const setUpgrade = (next: Upgrade) =>
    client.setQueryData<DeviceFirmware>(firmwareKeys.device({ serialNumber: sn }), (old) =>
      old ? { ...old, upgrade: next } : old,
    );
  const afterStart = (next: Upgrade) => {
    setRefusal(null);
    setUpgrade(next);
    void client.invalidateQueries({ queryKey: ['firmware', 'upgrades', device.id] });
    void message.success(t('upgrade.started'));
  };
  const refused = (error: unknown) => {
    if (!(error instanceof ApiError)) throw error;
    setRefusal(error.message);
    // what the server knows (online, a live upgrade started elsewhere) is read again
    void view.refetch();
  };

  const start = () => {
    if (!selected) return;
    modal.confirm({
      title: t('upgrade.confirmTitle'),
      content: (
        <>
          <p>
            {t('upgrade.confirm', { name: device.name, from: device.firmware ?? '?', to: selected.version })}
          </p>
          <Typography.Text type="warning">{t('page.notice')}</Typography.Text>
        </>
      ),
      okText: t('upgrade.button'),
      onOk: async () => {
        setBusy(true);
        try {
          afterStart((await firmwareApi.upgrade(device.id, selected.id)).data);
        } catch (error) {
          refused(error);
        } finally {
          setBusy(false);
        }
      },
    });
  };

  const retry = async () => {
    if (!upgrade) return;
    setBusy(true);
    try {
      afterStart((await firmwareApi.retry(device.id, upgrade.id)).data);
    } catch (error) {
      refused(error);
    } finally {
      setBusy(false);
    }
  };

  const offlineWarning = !device.online && !live && !refusal;

  return (
    <Space orientation="vertical" size={16} className="fw-page" data-testid="fw-page">
      <Card
        variant="borderless"
        title={
          <Flex gap={10} align="center" wrap>
            <span>
              {t('page.title')} · {device.name}
            </span>
            <Tooltip title={connected ? t('page.liveOn') : t('page.liveOff')}>
              <Badge
                status={connected ? 'processing' : 'default'}
                text={<span className="fw-small">{t('page.live')}</span>}
                data-testid="fw-live"
                data-live={connected ? 'on' : 'off'}
              />
            </Tooltip>
          </Flex>
        }
      >
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2, lg: 4 }}
          data-testid="fw-device"
          items={[
            {
              key: 'sn',
              label: t('device.sn'),
              children: (
                <Typography.Text copyable className="fw-mono">
                  {device.serialNumber}
                </Typography.Text>
              ),
            },
            { key: 'name', label: t('device.name'), children: device.name },
            {
              key: 'current',
              label: t('device.current'),
              children: (
                <Typography.Text strong data-testid="fw-current">
                  {device.firmware ?? t('device.unknown')}
                </Typography.Text>
              ),
            },
            {
              key: 'online',
              label: t('device.state'),
              children: (
                <Badge
                  status={device.online ? 'success' : 'default'}
                  text={device.online ? t('device.online') : t('device.offline')}
                  data-testid="fw-online"
                  data-online={String(device.online)}
                />
              ),
            },
            { key: 'model', label: t('device.model'), children: device.model || '—' },
          ]}
        />
        <Alert
          className="fw-notice"
          type="warning"
          showIcon
          title={t('page.notice')}
          description={t('page.noticeReload')}
          data-testid="fw-notice"
        />
        {upgrade ? (
          <UpgradeProgress
            upgrade={upgrade}
            lastSeen={lastSeen.current.id === upgrade.id ? lastSeen.current.step : undefined}
            onRetry={upgrade.state === 'failed' && canWrite ? retry : undefined}
            retrying={busy}
            vertical={narrow}
          />
        ) : null}
      </Card>
      <Card
        variant="borderless"
        title={t('versions.title')}
        extra={
          narrow ? null : (
            <UpgradeButton blocked={blocked} busy={busy} onClick={start} label={t('upgrade.button')} />
          )
        }
      >
        {refusal ? (
          <Alert
            className="fw-refusal"
            type="error"
            showIcon
            closable={{ onClose: () => setRefusal(null) }}
            title={t('upgrade.refused')}
            description={<span data-testid="fw-refusal">{refusal}</span>}
          />
        ) : offlineWarning ? (
          <Alert
            className="fw-refusal"
            type="warning"
            showIcon
            title={messageFor('gatewayOfflineUpgrade', currentLang())}
            data-testid="fw-offline"
          />
        ) : null}
        <VersionList
          versions={versions}
          model={device.model}
          running={device.firmware}
          selected={selectedId}
          onSelect={(id) => {
            setChosen(id);
            setRefusal(null);
          }}
          disabled={live}
        />
        {narrow ? (
          <div className="fw-narrow-action">
            <UpgradeButton blocked={blocked} busy={busy} onClick={start} label={t('upgrade.button')} block />
          </div>
        ) : null}
      </Card>
      <Card variant="borderless" title={t('history.title')}>
        <UpgradeHistory deviceId={device.id} live={live} />
      </Card>
    </Space>
  );
}

function UpgradeButton(props: {
  blocked: string | null;
  busy: boolean;
  onClick: () => void;
  label: string;
  block?: boolean;
}) {
  return (
    <Tooltip title={props.blocked}>
      <Button
        type="primary"
        icon={<CloudDownloadOutlined />}
        disabled={props.blocked != null}
        loading={props.busy}
        onClick={props.onClick}
        block={props.block}
        data-testid="fw-upgrade"
      >
        {props.label}
      </Button>
    </Tooltip>
  );
}
