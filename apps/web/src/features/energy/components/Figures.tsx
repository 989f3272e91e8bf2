import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import type { Lang } from '@platform/domain';
import { Statistic, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Change, EnergySummary } from '../api';
import { formatNumber } from '../model';

/** A change in tce against an earlier period: the percent with its arrow, and the tce beside. */
function ChangeValue({ change, lang, testId }: { change: Change; lang: Lang; testId: string }) {
  const { t } = useTranslation('energy');
  if (change.percent === null)
    return (
      <span className="energy-change energy-muted" data-testid={testId}>
        {t('figures.noEarlier')}
      </span>
    );
  const up = change.absolute > 0;
  const flat = change.absolute === 0;
  return (
    <span className={`energy-change ${flat ? '' : up ? 'energy-up' : 'energy-down'}`} data-testid={testId}>
      {flat ? null : up ? <ArrowUpOutlined /> : <ArrowDownOutlined />}
      {` ${formatNumber(change.percent, lang, 2)} %`}
      <span className="energy-muted">
        {change.absolute > 0 ? '+' : ''}
        {formatNumber(change.absolute, lang, 3)} tce
      </span>
    </span>
  );
}

/**
 * The totals of the range in the kind's unit and in tce, and the change in tce against the
 * period before and the same period a year before (the periods in the tooltip).
 */
export function Figures({
  summary,
  unit,
  loading,
  lang,
}: {
  summary: EnergySummary | undefined;
  unit: string;
  loading: boolean;
  lang: Lang;
}) {
  const { t } = useTranslation('energy');
  const fmt = (v: number | string) => formatNumber(Number(v), lang, 3);
  return (
    <div className="energy-figures">
      <Statistic
        title={t('figures.quantity', { unit })}
        value={summary?.total.quantity ?? 0}
        formatter={fmt}
        loading={loading}
        data-testid="energy-total-quantity"
      />
      <Statistic
        title={t('figures.tce')}
        value={summary?.total.tce ?? 0}
        formatter={fmt}
        loading={loading}
        data-testid="energy-total-tce"
      />
      <Statistic
        title={
          <Tooltip
            title={
              summary ? t('figures.against', { from: summary.previous.from, to: summary.previous.to }) : null
            }
          >
            <span className="energy-hinted">{t('figures.previous')}</span>
          </Tooltip>
        }
        loading={loading}
        valueRender={() =>
          summary ? (
            <ChangeValue change={summary.previous.change} lang={lang} testId="energy-change-previous" />
          ) : (
            '—'
          )
        }
      />
      <Statistic
        title={
          <Tooltip
            title={
              summary ? t('figures.against', { from: summary.lastYear.from, to: summary.lastYear.to }) : null
            }
          >
            <span className="energy-hinted">{t('figures.lastYear')}</span>
          </Tooltip>
        }
        loading={loading}
        valueRender={() =>
          summary ? (
            <ChangeValue change={summary.lastYear.change} lang={lang} testId="energy-change-year" />
          ) : (
            '—'
          )
        }
      />
    </div>
  );
}
