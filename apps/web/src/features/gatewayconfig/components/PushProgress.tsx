import { Alert, Spin, Steps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FINAL_PUSH_STATES, type PushState, type PushView } from '../api';

const ALERT_TYPE: Record<PushState, 'info' | 'success' | 'warning' | 'error'> = {
  waiting: 'info',
  applied: 'info',
  committed: 'success',
  unchanged: 'success',
  rejected: 'error',
  rolledBack: 'warning',
  noAnswer: 'error',
};

/** Where a step of sent → applied → confirmed stands for each push state. */
function steps(state: PushState): Array<'wait' | 'process' | 'finish' | 'error'> {
  switch (state) {
    case 'waiting':
      return ['finish', 'process', 'wait'];
    case 'applied':
      return ['finish', 'finish', 'process'];
    case 'committed':
    case 'unchanged':
      return ['finish', 'finish', 'finish'];
    case 'rejected':
    case 'noAnswer':
      return ['finish', 'error', 'wait'];
    case 'rolledBack':
      return ['finish', 'finish', 'error'];
  }
}

/** A push as it goes: sent, applied by the gateway, confirmed; or how it ended. */
export function PushProgress({ push }: { push: PushView }) {
  const { t } = useTranslation('gatewayconfig');
  const live = !FINAL_PUSH_STATES.includes(push.state);
  const [sent, applied, committed] = steps(push.state);
  return (
    <div className="gc-push" data-testid="gc-push" data-state={push.state}>
      <Steps
        size="small"
        responsive={false}
        items={[
          { title: t('push.steps.sent'), status: sent },
          {
            title: t('push.steps.applied'),
            status: applied,
            icon: live && applied === 'process' ? <Spin size="small" /> : undefined,
          },
          {
            title: t('push.steps.committed'),
            status: committed,
            icon: live && committed === 'process' ? <Spin size="small" /> : undefined,
          },
        ]}
      />
      <Alert
        className="gc-push-alert"
        type={ALERT_TYPE[push.state]}
        showIcon
        data-testid="gc-push-state"
        title={`${t('editor.version', { version: push.version })} · ${t(`push.states.${push.state}`)}`}
        description={t(`push.stateHints.${push.state}`, {
          version: push.version,
          running: push.runningVersion ?? '?',
        })}
      />
      {push.errors.length > 0 && (
        <div className="gc-push-errors">
          <Typography.Text strong>{t('push.gatewayErrors')}</Typography.Text>
          <ul>
            {push.errors.map((e, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the gateway's list, shown as it came
              <li key={i}>
                {[e.node, e.field].filter(Boolean).join(' · ')}
                {e.node || e.field ? ': ' : ''}
                {e.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <Typography.Text type="secondary" className="gc-hash">
        SHA-256 {push.hash}
      </Typography.Text>
    </div>
  );
}
