import { Progress, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMb, formatPercent, usageColour } from '../model';

/**
 * A card's usage against its plan: a bar coloured by the percentage scale of 20/40/60/80/100
 * (green to red; over the plan stays red and full), the share and the figures under it.
 */
export function UsageBar({
  usedMb,
  planMb,
  percent,
  compact = false,
}: {
  usedMb: number | null;
  planMb: number | null;
  percent: number | null;
  compact?: boolean;
}) {
  const { t } = useTranslation('sims');
  if (usedMb === null) return <span className="sim-muted">{t('usage.none', '暂无用量')}</span>;
  if (percent === null) {
    return (
      <span>
        {formatMb(usedMb)} <span className="sim-muted">{t('usage.noPlan', '（无套餐）')}</span>
      </span>
    );
  }
  const colour = usageColour(percent);
  const figures = `${formatMb(usedMb)} / ${formatMb(planMb)}`;
  return (
    <Tooltip title={figures}>
      <div className={compact ? 'sim-usage sim-usage-compact' : 'sim-usage'} data-testid="sim-usage">
        <Progress
          percent={Math.min(100, percent)}
          strokeColor={colour}
          size="small"
          showInfo={false}
          aria-label={formatPercent(percent)}
        />
        <div className="sim-usage-text">
          <span
            style={{ color: percent > 100 ? colour : undefined, fontWeight: percent > 100 ? 600 : undefined }}
          >
            {formatPercent(percent)}
          </span>
          {compact ? null : <span className="sim-muted">{figures}</span>}
        </div>
      </div>
    </Tooltip>
  );
}
