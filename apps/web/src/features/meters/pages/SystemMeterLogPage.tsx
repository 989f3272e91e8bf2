import { Pagination } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../shared/LoadFailed';
import { type LogRow, useSystemList } from '../api';
import { MeterLogTable } from '../components/MeterLogTable';
import { SystemListFrame, useSystemPaging } from '../components/SystemListFrame';
import '../meters.css';

/** System maintenance systememeterlog (system_emeter_log): every company's replacements and rollovers. */
export default function SystemMeterLogPage() {
  const { t } = useTranslation('meters');
  const paging = useSystemPaging();
  const log = useSystemList<LogRow>('log', paging.pageNum, paging.pageSize, paging.companyId);
  const rows = (log.data ?? []).filter((r) => paging.matches(r.meterName, r.meterCode, r.note, r.createdBy));
  const pagination = paging.pagination(log.data?.length ?? 0);
  return (
    <SystemListFrame
      title={t('system.log', '电表日志')}
      hint={t('system.logHint', '所有公司的换表与翻转记录，最新的在前。')}
      paging={paging}
      testId="system-meter-log"
    >
      {log.isError ? <LoadFailed onRetry={() => log.refetch()} /> : null}
      <MeterLogTable rows={rows} loading={log.isFetching} showMeter testId="system-meter-log-table" />
      <Pagination className="meter-pager" size="small" {...(pagination as object)} />
    </SystemListFrame>
  );
}
