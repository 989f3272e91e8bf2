import { DownloadOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/time';
import { saveText, toCsv } from '../../devices/csv';
import { allPages } from '../api';

/** One column of an export: its heading and its cell. */
export type ExportColumn<T> = [heading: string, cell: (row: T) => unknown];

/**
 * Export a list as CSV (UTF-8 with a byte-order mark, so spreadsheets read Chinese): every row
 * under the list's filters, fetched page after page, not only the page shown.
 */
export function ExportButton<T>({
  path,
  query,
  columns,
  fileName,
  testId,
}: {
  path: string;
  query: object;
  columns: ReadonlyArray<ExportColumn<T>>;
  /** the file's name before its time stamp */
  fileName: string;
  testId: string;
}) {
  const { t } = useTranslation('inventory');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const rows = await allPages<T>(path, query);
      const table = [
        columns.map(([heading]) => heading),
        ...rows.map((row) => columns.map(([, cell]) => cell(row))),
      ];
      saveText(toCsv(table), `${fileName}-${formatTime(Date.now()).replace(/\D/g, '')}.csv`);
      message.success(t('common.exported', { count: rows.length }));
    } catch {
      // the http client showed the error
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={run} data-testid={testId}>
      {t('common.exportCsv')}
    </Button>
  );
}
