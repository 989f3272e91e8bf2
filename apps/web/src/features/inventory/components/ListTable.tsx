import { Empty, Table, type TablePaginationConfig, type TableProps, Typography } from 'antd';
import type { ColumnsType, ColumnType, TableRowSelection } from 'antd/es/table/interface';
import type { ReactNode } from 'react';
import { LoadFailed } from '../../../shared/LoadFailed';
import type { Page } from '../../../shared/paging';

/** A list's query as the table needs it: its failure offers a retry, its fetching shows. */
export interface ListQuery {
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * A table of the inventory pages: a failed load says so with a retry above it, an empty one says
 * why, and it scrolls sideways when the screen is narrower than `scrollX`.
 */
export function ListTable<T extends object>({
  testId,
  query,
  rows,
  columns,
  pagination = false,
  scrollX,
  empty,
  rowKey = 'id',
  rowSelection,
  onChange,
}: {
  testId: string;
  query?: ListQuery;
  rows: readonly T[];
  columns: ColumnsType<T>;
  pagination?: TablePaginationConfig | false;
  scrollX: number;
  empty: ReactNode;
  rowKey?: string | ((row: T) => string);
  rowSelection?: TableRowSelection<T>;
  /** a paged list's server-side sort (shared/paging.ts onSort) */
  onChange?: TableProps<T>['onChange'];
}) {
  return (
    <>
      {query?.isError ? <LoadFailed onRetry={() => void query.refetch()} /> : null}
      <Table<T>
        rowKey={rowKey as string}
        size="middle"
        columns={columns}
        dataSource={rows as T[]}
        loading={query?.isFetching ?? false}
        pagination={pagination}
        rowSelection={rowSelection}
        onChange={onChange}
        scroll={{ x: scrollX }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
        data-testid={testId}
      />
    </>
  );
}

/** A ListTable of one page of a paged list: its rows and its pager from the list's query. */
export function PagedTable<T extends object>({
  query,
  pagination,
  ...rest
}: Omit<Parameters<typeof ListTable<T>>[0], 'rows' | 'pagination' | 'query'> & {
  query: ListQuery & { data: Page<T> | undefined };
  pagination: (page: Page<T> | undefined) => TablePaginationConfig;
}) {
  return (
    <ListTable<T> {...rest} query={query} rows={query.data?.list ?? []} pagination={pagination(query.data)} />
  );
}

/** The serial-number column of a table of units or lines. */
export function serialColumn<T extends { sn: string | null }>(title: string): ColumnType<T> {
  return {
    title,
    dataIndex: 'sn',
    width: 170,
    render: (sn: string) => (
      <Typography.Text strong className="inv-mono">
        {sn}
      </Typography.Text>
    ),
  };
}
