import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Grid, Input, Table, type TablePaginationConfig, type TableProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton, type ExportColumn } from '../../../shared/ExportButton';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { RowActions } from './RowActions';

/** A row's actions: edit (opens the modal), a confirmed delete, and any buttons before them. */
export interface GasListActions<T> {
  /** the actions column's width on a wide screen */
  width: number;
  /** the row's part of the buttons' data-testids; its id when not given */
  testKey?: (row: T) => string | number;
  deleteConfirm: (row: T) => string;
  onDelete: (row: T) => unknown;
  /** why the row cannot be deleted, when it cannot */
  deleteBlocked?: (row: T) => string | undefined;
  /** buttons before edit */
  leading?: (row: T, labelled: boolean) => ReactNode;
  /** a phone's icons wrap */
  wrapOnPhone?: boolean;
}

/** What the page's add/edit modal is given: `editing` null adds a row. */
export interface GasListModal<T> {
  open: boolean;
  editing: T | null;
  onClose: () => void;
}

/** A list's CSV export: every row under its search (all pages), in these columns. */
export interface GasListExport<T> {
  load: () => Promise<readonly T[]>;
  columns: ReadonlyArray<ExportColumn<T>>;
  fileName: string;
}

/**
 * A gas list page's card: title and hint, the add button, a search and the CSV export, the
 * table (a wide screen's columns or a phone's, each ending in the row actions) and the page's
 * add/edit modal. The data-testids are `testId` on the card, `${testPrefix}-add`, `-search`,
 * `-export` and `-table`, and the row actions' `${testPrefix}-edit-…` and `${testPrefix}-delete-…`.
 */
export function GasListCard<T extends { id: number }>({
  testId,
  testPrefix,
  title,
  hint,
  addLabel,
  searchPlaceholder,
  onSearch,
  onSearchChange,
  query,
  rows,
  pagination,
  onSort,
  columns,
  phoneColumns,
  scrollX,
  actions,
  emptyText,
  modal,
  exportList,
}: {
  testId: string;
  testPrefix: string;
  title: string;
  hint: string;
  addLabel: string;
  searchPlaceholder: string;
  onSearch: (value: string) => void;
  /** each keystroke, for a list filtered as a person types */
  onSearchChange?: (value: string) => void;
  /** the list's query: its failure offers a retry, its fetching shows on the table */
  query: { isError: boolean; isFetching: boolean; refetch: () => unknown };
  rows: T[];
  pagination: TablePaginationConfig | false;
  /** a paged list's server-side sort (shared/paging.ts onSort) */
  onSort?: TableProps<T>['onChange'];
  /** a wide screen's columns, before the actions */
  columns: ColumnsType<T>;
  /** a phone's columns, before the actions (as icons) */
  phoneColumns: ColumnsType<T>;
  /** the table's width on a wide screen (it scrolls sideways when narrower) */
  scrollX: number;
  actions: GasListActions<T>;
  /** what an empty table says */
  emptyText: string;
  modal: (props: GasListModal<T>) => ReactNode;
  exportList: GasListExport<T>;
}) {
  const { t } = useTranslation('gas');
  const wide = Grid.useBreakpoint().md === true;
  const [editing, setEditing] = useState<{ row: T | null } | null>(null);

  const rowActions = (row: T, labelled: boolean) => (
    <RowActions
      labelled={labelled}
      wrap={actions.wrapOnPhone ? !labelled : undefined}
      testPrefix={testPrefix}
      testKey={actions.testKey ? actions.testKey(row) : row.id}
      leading={actions.leading?.(row, labelled)}
      onEdit={() => setEditing({ row })}
      deleteConfirm={actions.deleteConfirm(row)}
      deleteBlocked={actions.deleteBlocked?.(row)}
      onDelete={() => actions.onDelete(row)}
    />
  );
  const wideColumns: ColumnsType<T> = [
    ...columns,
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: actions.width,
      fixed: 'right',
      render: (_, row) => rowActions(row, true),
    },
  ];
  const narrowColumns: ColumnsType<T> = [
    ...phoneColumns,
    { title: '', key: 'actions', width: 76, render: (_, row) => rowActions(row, false) },
  ];

  return (
    <Card variant="borderless" data-testid={testId}>
      <PageHeader
        title={title}
        hint={hint}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing({ row: null })}
            data-testid={`${testPrefix}-add`}
          >
            {addLabel}
          </Button>
        }
      />
      <div className="gas-toolbar">
        <Input.Search
          className="gas-search"
          allowClear
          placeholder={searchPlaceholder}
          onChange={onSearchChange ? (e) => onSearchChange(e.target.value) : undefined}
          onSearch={(value) => onSearch(value)}
          data-testid={`${testPrefix}-search`}
        />
        <ExportButton<T>
          load={exportList.load}
          columns={exportList.columns}
          fileName={exportList.fileName}
          testId={`${testPrefix}-export`}
        />
      </div>
      {query.isError ? <LoadFailed onRetry={() => void query.refetch()} /> : null}
      <Table<T>
        rowKey="id"
        size="middle"
        columns={wide ? wideColumns : narrowColumns}
        dataSource={rows}
        loading={query.isFetching}
        pagination={pagination}
        onChange={onSort}
        scroll={wide ? { x: scrollX } : undefined}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />,
        }}
        data-testid={`${testPrefix}-table`}
      />
      {modal({ open: editing !== null, editing: editing?.row ?? null, onClose: () => setEditing(null) })}
    </Card>
  );
}
