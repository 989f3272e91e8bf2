import { ReloadOutlined } from '@ant-design/icons';
import { messageFor, SUCCESS_MESSAGES } from '@platform/domain';
import { Alert, Button, Progress, Spin, Steps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLang } from '../../../app/i18n';
import { formatTime } from '../../../shared/time';
import { isLive, UPGRADE_STEPS, type Upgrade } from '../api';
import { type Step, stepStatuses } from '../states';

interface Props {
  upgrade: Upgrade;
  /** the last live step this page saw (places a failure the reason does not place) */
  lastSeen?: Step;
  /** offered on a failure when the person may retry */
  onRetry?: () => void;
  retrying?: boolean;
  /** steps drawn vertically (a phone) */
  vertical?: boolean;
}

/**
 * An upgrade as it goes: the ordered steps (queued … version check, success), the progress of
 * downloading and installing, and how it ended: success names the version the gateway now runs;
 * a failure names its reason in words and offers Retry.
 */
export function UpgradeProgress({ upgrade, lastSeen, onRetry, retrying, vertical }: Props) {
  const { t } = useTranslation('firmware');
  const live = isLive(upgrade);
  const statuses = stepStatuses(upgrade, lastSeen);
  const current = statuses.findIndex((status) => status !== 'finish');
  const lang = currentLang();
  const showPercent =
    live && (upgrade.state === 'downloading' || upgrade.state === 'installing') && upgrade.progress != null;

  let alert: React.ReactNode;
  if (upgrade.state === 'success') {
    alert = (
      <Alert
        type="success"
        showIcon
        data-testid="fw-result"
        data-result="success"
        title={SUCCESS_MESSAGES.firmwareUpdated[lang]}
        description={t('hints.success', { version: upgrade.version })}
      />
    );
  } else if (upgrade.state === 'failed') {
    alert = (
      <Alert
        type="error"
        showIcon
        data-testid="fw-result"
        data-result="failed"
        data-reason={upgrade.reason ?? ''}
        title={messageFor('firmwareFailed', lang)}
        description={
          <>
            <div data-testid="fw-reason">{t(`reasons.${upgrade.reason ?? 'unknown'}`)}</div>
            {upgrade.detail ? (
              <Typography.Text type="secondary" className="fw-small">
                {t('progress.detail', { detail: upgrade.detail })}
              </Typography.Text>
            ) : null}
          </>
        }
        action={
          onRetry ? (
            <Button
              type="primary"
              icon={<ReloadOutlined />}
              loading={retrying}
              onClick={onRetry}
              data-testid="fw-retry"
            >
              {t('progress.retry')}
            </Button>
          ) : undefined
        }
      />
    );
  } else {
    alert = (
      <Alert
        type="info"
        showIcon
        data-testid="fw-result"
        data-result="live"
        title={t(`states.${upgrade.state}`)}
        description={t(`hints.${upgrade.state}`, {
          progress: upgrade.progress ?? 0,
          version: upgrade.version,
        })}
      />
    );
  }

  return (
    <div
      className="fw-progress"
      data-testid="fw-progress"
      data-state={upgrade.state}
      data-upgrade={upgrade.id}
    >
      <div className="fw-progress-head">
        <Typography.Text strong>
          {t('progress.to', { version: upgrade.version })}
          {upgrade.fromVersion ? ` · ${t('progress.from', { version: upgrade.fromVersion })}` : ''}
        </Typography.Text>
        <Typography.Text type="secondary" className="fw-small">
          {t('progress.startedBy', {
            name: upgrade.createdBy?.name ?? '—',
            time: formatTime(upgrade.createdAt),
          })}
        </Typography.Text>
      </div>
      <Steps
        size="small"
        orientation={vertical ? 'vertical' : 'horizontal'}
        titlePlacement={vertical ? undefined : 'vertical'}
        responsive={false}
        // the step that is on (or failed, or the last one done): antd styles it as the current one
        current={current === -1 ? statuses.length - 1 : current}
        className="fw-steps"
        items={UPGRADE_STEPS.map((step, i) => ({
          title: t(`steps.${step}`),
          status: statuses[i],
          icon: live && statuses[i] === 'process' ? <Spin size="small" /> : undefined,
          'data-testid': `fw-step-${step}`,
          'data-status': statuses[i],
        }))}
      />
      {showPercent ? (
        <Progress
          percent={upgrade.progress ?? 0}
          status="active"
          data-testid="fw-percent"
          format={(p) => `${t(`steps.${upgrade.state}`)} ${p}%`}
        />
      ) : null}
      {alert}
    </div>
  );
}
