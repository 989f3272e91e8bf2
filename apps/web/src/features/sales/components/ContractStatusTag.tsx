import { CONTRACT_STATUS_LABELS, type ContractStatus } from '@platform/domain';
import { Tag } from 'antd';
import { currentLang } from '../../../app/i18n';

const COLOR: Record<ContractStatus, string> = { draft: 'default', signed: 'success' };

/** A contract's status in the domain's words. */
export function ContractStatusTag({ status }: { status: ContractStatus }) {
  return (
    <Tag color={COLOR[status]} data-testid={`contract-status-${status}`}>
      {CONTRACT_STATUS_LABELS[status][currentLang()]}
    </Tag>
  );
}
