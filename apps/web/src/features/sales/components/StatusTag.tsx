import { SALES_STATUS_LABELS, type SalesStatus } from '@platform/domain';
import { Tag } from 'antd';
import { currentLang } from '../../../app/i18n';

const COLOR: Record<SalesStatus, string> = { submitted: 'processing', paid: 'success', cancelled: 'default' };

/** An order's status in the domain's words. */
export function StatusTag({ status }: { status: SalesStatus }) {
  return (
    <Tag color={COLOR[status]} data-testid={`sales-status-${status}`}>
      {SALES_STATUS_LABELS[status][currentLang()]}
    </Tag>
  );
}
