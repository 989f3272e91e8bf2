import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Dropdown } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../app/http/client';
import { saveBlob, toCsv } from '../features/devices/csv';
import { formatTime } from './time';

/** One column of an export: its heading (in the page's language) and its cell. */
export type ExportColumn<T> = [heading: string, cell: (row: T) => unknown];

export type ExportFormat = 'csv' | 'xlsx';

/** A cell as the workbook keeps it: numbers stay numbers (sums work), the rest is text. */
function sheetCell(value: unknown): string | number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  return String(value);
}

/**
 * A workbook of one sheet (write-excel-file, loaded on the first XLSX export): text cells are
 * always text, so a cell that looks like a formula never runs as one; each column as wide as
 * its longest cell, within 8 and 50 characters.
 */
async function xlsxBlob(table: unknown[][]): Promise<Blob> {
  const { default: writeExcelFile } = await import('write-excel-file/universal');
  const data = table.map((row) => row.map(sheetCell));
  const widths = (data[0] ?? []).map((_, column) =>
    Math.min(50, Math.max(8, ...data.map((row) => String(row[column] ?? '').length + 2))),
  );
  return writeExcelFile(data, { columns: widths.map((width) => ({ width })), stickyRowsCount: 1 }).toBlob();
}

/**
 * Export a list as CSV (UTF-8 with a byte-order mark, so spreadsheets read Chinese) or as an
 * Excel workbook, made in the browser from the rows `load` answers: every row under the list's
 * filters (`allPages` of a paged list), not only the page shown. The button opens the choice;
 * the choices carry the test ids `<testId>-csv` and `<testId>-xlsx`.
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
  const run = async (format: ExportFormat) => {
    setBusy(true);
    try {
      const rows = await load();
      const table = [
        columns.map(([heading]) => heading),
        ...rows.map((row) => columns.map(([, cell]) => cell(row))),
      ];
      const name = `${fileName}-${formatTime(Date.now()).replace(/\D/g, '')}.${format}`;
      if (format === 'csv') saveBlob(new Blob([toCsv(table)], { type: 'text/csv;charset=utf-8' }), name);
      else saveBlob(await xlsxBlob(table), name);
      message.success(t('exported', { count: rows.length }));
    } catch (error) {
      // the http client showed a failed load; a workbook that could not be made says so here
      if (!(error instanceof ApiError)) message.error(t('exportFailed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dropdown
      trigger={['click']}
      disabled={busy}
      menu={{
        items: [
          { key: 'csv', label: 'CSV', onClick: () => void run('csv'), 'data-testid': `${testId}-csv` },
          {
            key: 'xlsx',
            label: 'Excel (XLSX)',
            onClick: () => void run('xlsx'),
            'data-testid': `${testId}-xlsx`,
          },
        ],
      }}
    >
      <Button icon={<DownloadOutlined />} loading={busy} data-testid={testId}>
        {t('export')}
      </Button>
    </Dropdown>
  );
}
