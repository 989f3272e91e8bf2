import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import { type ConfigProblem, type GatewayConfig, type Lang, messageFor } from '@platform/domain';
import { Alert, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldLabelKey } from './fields';

interface Props {
  /** null before the first check */
  problems: readonly ConfigProblem[] | null;
  config: GatewayConfig;
  /** the configuration changed after the check */
  stale: boolean;
  onPick: (problem: ConfigProblem) => void;
}

/** What the check found, as a compiler lists it: each line names the node and the field; a click goes there. */
export function ProblemList({ problems, config, stale, onPick }: Props) {
  const { t, i18n } = useTranslation('gatewayconfig');
  const lang: Lang = i18n.language === 'en' ? 'en' : 'zh';
  if (problems == null) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('check.notRun')} />;
  }
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  const typeOf = (id: string | null) => config.nodes.find((n) => n.id === id)?.type;
  const nameOf = (id: string | null) =>
    id == null ? t('check.whole') : (config.nodes.find((n) => n.id === id)?.name ?? id);
  return (
    <div className="gc-problems" data-testid="gc-problems">
      {stale && <Alert type="info" showIcon title={t('check.stale')} className="gc-problems-stale" />}
      {errors === 0 ? (
        <Alert
          type="success"
          showIcon
          icon={<CheckCircleFilled />}
          data-testid="gc-check-passed"
          title={warnings ? t('check.passedWarnings', { count: warnings }) : t('check.passed')}
        />
      ) : (
        <Alert
          type="error"
          showIcon
          data-testid="gc-check-failed"
          title={t('check.failed', { errors, warnings })}
        />
      )}
      <ul className="gc-problem-list">
        {problems.map((p, i) => (
          // problems have no identity of their own: the list is redrawn whole after each check
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={i}>
            <button
              type="button"
              className={`gc-problem gc-problem-${p.severity}`}
              data-testid="gc-problem"
              data-node={p.node ?? ''}
              data-field={p.field ?? ''}
              data-key={p.key}
              onClick={() => onPick(p)}
            >
              {p.severity === 'error' ? (
                <CloseCircleFilled className="gc-badge-error" aria-label={t('check.error')} />
              ) : (
                <ExclamationCircleFilled className="gc-badge-warning" aria-label={t('check.warning')} />
              )}
              <span className="gc-problem-text">
                <Typography.Text strong>{nameOf(p.node)}</Typography.Text>
                {p.field && (
                  <Typography.Text type="secondary">
                    {' '}
                    · {t(fieldLabelKey(typeOf(p.node), p.field), p.field)}
                  </Typography.Text>
                )}
                <br />
                <span>{messageFor(p.key, lang, p.params)}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
