import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMinute } from '../../../shared/time';
import type { EnergyIssue } from '../api';

/** What the computation could not count (a decrease that needs a replacement recorded, a missing meter). */
export function IssueList({ issues }: { issues: EnergyIssue[] }) {
  const { t } = useTranslation('meters');
  if (issues.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      className="meter-alert"
      data-testid="meter-issues"
      title={t('issues.title', '以下情况未计入电量，请核对')}
      description={
        <ul className="meter-issues">
          {issues.slice(0, 10).map((i, n) => (
            <li key={`${i.meter}-${i.reason}-${i.at ?? n}`}>
              {t(`issues.${i.reason}`, { defaultValue: i.reason, meter: i.meter })}
              {i.at ? ` (${formatMinute(i.at)})` : ''}
              {i.detail ? `: ${i.detail}` : ''}
            </li>
          ))}
          {issues.length > 10 && <li>…</li>}
        </ul>
      }
    />
  );
}
