import { DownloadOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveText, toCsv } from '../features/devices/csv';
import { formatTime } from './time';

/** One column of an export: its heading (in the page's language) and its cell. */
export type ExportColumn<T> = [heading: string, cell: (row: T) => unknown];

/**
 * Export a list as CSV (UTF-8 with a byte-order mark, so spreadsheets read Chinese), made in
 * the browser from the rows `load` answers: every row under the list's filters (`allPages` of a
 * paged list), not only the page shown.
 */
export function ExportButton<T>({
  load,
  columns,
  fileName,
  testId,
}: {
  load: () => Promise<readonly T[]>;
  columns: ReadonlyArray<ExportColumn<T>>;
  /** the file's name before its time stamp */
  fileName: string;
  testId: string;
}) {
  const { t } = useTranslation('shared');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const rows = await load();
      const table = [
        columns.map(([heading]) => heading),
        ...rows.map((row) => columns.map(([, cell]) => cell(row))),
      ];
      saveText(toCsv(table), `${fileName}-${formatTime(Date.now()).replace(/\D/g, '')}.csv`);
      message.success(t('exported', { count: rows.length }));
    } catch {
      // the http client showed the error
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={run} data-testid={testId}>
      {t('exportCsv', '导出 CSV')}
    </Button>
  );
}
