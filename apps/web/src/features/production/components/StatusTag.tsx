import type { ScheduleStatus } from '@platform/domain';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  langOf,
  SCHEDULE_STATUS_COLOR,
  scheduleStatusLabel,
  UNIT_STATUS_COLOR,
  unitStatusLabel,
} from '../model';

/** A plan's status in the domain's words. */
export function StatusTag({ status, testId }: { status: ScheduleStatus; testId?: string }) {
  const { i18n } = useTranslation('production');
  return (
    <Tag color={SCHEDULE_STATUS_COLOR[status]} className="production-tag" data-testid={testId}>
      {scheduleStatusLabel(status, langOf(i18n.language))}
    </Tag>
  );
}

/** A unit's status now (in production, finished, stocked, out…) in the domain's words. */
export function UnitStatusTag({ status }: { status: string }) {
  const { i18n } = useTranslation('production');
  return (
    <Tag
      color={UNIT_STATUS_COLOR[status as keyof typeof UNIT_STATUS_COLOR] ?? 'default'}
      className="production-tag"
    >
      {unitStatusLabel(status, langOf(i18n.language))}
    </Tag>
  );
}
