import { EditOutlined, FileTextOutlined, FolderOpenOutlined } from '@ant-design/icons';
import { Button, Descriptions, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { pickerNow } from '../../../shared/time';
import { type Meter, useMeter } from '../api';
import { CABIN_PATH, meterPaths } from '../paths';

/** The meter of a page's address, loaded, with its header (report and edit links) above `children`. */
export function MeterFrame({
  id,
  hint,
  actions,
  details,
  children,
}: {
  id: number;
  hint: string;
  actions?: (m: Meter) => ReactNode;
  details: (m: Meter) => Array<{ key: string; label: string; children: ReactNode }>;
  children: (m: Meter) => ReactNode;
}) {
  const { t } = useTranslation('meters');
  const meter = useMeter(id);
  if (meter.isError) return <LoadFailed onRetry={() => meter.refetch()} />;
  if (!meter.data) return <Skeleton active />;
  const m = meter.data;
  const now = pickerNow();
  return (
    <div className="meter-page">
      <PageHeader
        title={m.name}
        hint={hint}
        extra={
          <>
            <Link to={CABIN_PATH}>
              <Button icon={<FolderOpenOutlined />}>{t('meter.cabin', '数据舱')}</Button>
            </Link>
            {actions?.(m)}
            <Link to={meterPaths.report(m, now.year(), now.month() + 1)} data-testid="meter-report-link">
              <Button icon={<FileTextOutlined />}>{t('meter.report', '月报')}</Button>
            </Link>
            {m.level >= 2 ? (
              <Link to={meterPaths.config(m)} data-testid="meter-edit-link">
                <Button icon={<EditOutlined />}>{t('meter.edit', '编辑')}</Button>
              </Link>
            ) : null}
          </>
        }
      />
      <Descriptions
        className="meter-card meter-details"
        size="small"
        bordered
        column={{ xs: 1, sm: 2, lg: 3 }}
        items={details(m)}
        data-testid="meter-details"
      />
      {children(m)}
    </div>
  );
}
