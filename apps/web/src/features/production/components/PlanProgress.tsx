import { Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Schedule } from '../api';
import { percentOf } from '../model';

/**
 * A plan's counts against its quantity: finished (green) and recorded but still in production
 * (blue) on the bar, the finished count out of the quantity beside it, the three counts in
 * words below.
 */
export function PlanProgress({
  plan,
}: {
  plan: Pick<Schedule, 'quantity' | 'recorded' | 'finished' | 'inProduction'>;
}) {
  const { t } = useTranslation('production');
  return (
    <div className="production-progress-block" data-testid="production-progress">
      <Progress
        percent={percentOf(plan.recorded, plan.quantity)}
        success={{ percent: percentOf(plan.finished, plan.quantity) }}
        size="small"
        format={() => `${plan.finished}/${plan.quantity}`}
        className="production-progress"
      />
      <span className="production-muted" data-testid="production-counts">
        {t('progress.counts', {
          recorded: plan.recorded,
          finished: plan.finished,
          inProduction: plan.inProduction,
        })}
      </span>
    </div>
  );
}
