import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { STOCK_STATUS_IDS } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Popconfirm, Space, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ExportButton, type ExportColumn } from '../../../shared/ExportButton';
import { PageHeader } from '../../../shared/PageHeader';
import { allPages } from '../../../shared/paging';
import { formatTime } from '../../../shared/time';
import { type CategoryQuery, type CategoryRow, inventoryApi, inventoryKeys, useCategories } from '../api';
import { CategoryModal } from '../components/CategoryModal';
import { PagedTable } from '../components/ListTable';
import { Holdings, KindTag } from '../components/Tags';
import { FilterSelect, SearchBox } from '../components/Toolbar';
import { useFilters } from '../filters';
import { CATEGORY_KINDS, type CategoryKind, inventoryPaths, langOf, stockWord } from '../model';
import '../inventory.css';

const dash = <span className="inv-muted">—</span>;

/**
 * /inventoryManagement/categoryList (im_category): the categories of goods, each with what it
 * holds; added, edited and deleted here (the server refuses deleting one that holds goods).
 */
export default function CategoryListPage() {
  const { t, i18n } = useTranslation('inventory');
  const lang = langOf(i18n.language);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { paging, pagination, stepBackIfEmpty, filters, filter, filtered, onSort } =
    useFilters<CategoryQuery>();
  const [editing, setEditing] = useState<{ row: CategoryRow | null } | null>(null);
  const query = { ...paging, ...filters };
  const categories = useCategories(query);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: inventoryKeys.all });

  const remove = async (row: CategoryRow) => {
    try {
      const envelope = await inventoryApi.deleteCategory(row.id);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.all });
      stepBackIfEmpty(queryClient.getQueryData(inventoryKeys.categories(query)));
    } catch {
      // the http client showed the server's refusal (a category that holds goods)
    }
  };

  const columns: ColumnsType<CategoryRow> = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      sorter: true,
      width: 190,
      render: (name: string, row) => (
        <div className="inv-cell">
          <Link to={inventoryPaths.category(row)} data-testid={`inv-category-link-${row.id}`}>
            <Typography.Text strong className="inv-link-text">
              {name}
            </Typography.Text>
          </Link>
          {row.notes ? (
            <Typography.Text type="secondary" className="inv-muted" ellipsis={{ tooltip: row.notes }}>
              {row.notes}
            </Typography.Text>
          ) : null}
        </div>
      ),
    },
    {
      title: t('fields.kind'),
      dataIndex: 'kind',
      sorter: true,
      width: 100,
      render: (k: CategoryKind) => <KindTag kind={k} />,
    },
    {
      title: t('fields.tracking'),
      dataIndex: 'serialized',
      width: 100,
      render: (serialized: boolean) => t(serialized ? 'tracking.serialized' : 'tracking.counted'),
    },
    {
      title: t('fields.model'),
      dataIndex: 'model',
      sorter: true,
      width: 120,
      render: (v: string) => v || dash,
    },
    { title: t('fields.unit'), dataIndex: 'unit', width: 60, render: (v: string) => v || dash },
    {
      title: t('fields.holds'),
      key: 'holds',
      width: 230,
      render: (_, row) => <Holdings counts={row.counts} quantity={row.quantity} unit={row.unit} />,
    },
    {
      title: t('fields.updatedAt'),
      dataIndex: 'updatedAt',
      width: 160,
      render: (iso: string) => formatTime(iso),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 150,
      render: (_, row) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            onClick={() => setEditing({ row })}
            data-testid={`inv-category-edit-${row.id}`}
          >
            {t('common.edit')}
          </Button>
          <Popconfirm
            title={t('category.deleteConfirm', { name: row.name })}
            okText={t('common.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel')}
            onConfirm={() => remove(row)}
          >
            <Button
              type="link"
              size="small"
              danger
              icon={<DeleteOutlined />}
              data-testid={`inv-category-delete-${row.id}`}
            >
              {t('common.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  /** what a category holds, as one line of text: units by stock status, or a quantity */
  const holdings = (row: CategoryRow) => {
    if (!row.counts) return `${row.quantity ?? 0} ${row.unit}`.trim();
    return STOCK_STATUS_IDS.filter((id) => (row.counts?.[id] ?? 0) > 0)
      .map((id) => `${stockWord(id, lang)} ${row.counts?.[id]}`)
      .join(' · ');
  };
  const exportColumns: ExportColumn<CategoryRow>[] = [
    [t('fields.name'), (c) => c.name],
    [t('fields.kind'), (c) => t(`kind.${c.kind}`)],
    [t('fields.tracking'), (c) => t(c.serialized ? 'tracking.serialized' : 'tracking.counted')],
    [t('fields.model'), (c) => c.model],
    [t('fields.unit'), (c) => c.unit],
    [t('fields.holds'), holdings],
    [t('fields.notes'), (c) => c.notes],
    [t('fields.updatedAt'), (c) => formatTime(c.updatedAt)],
  ];

  return (
    <Card variant="borderless" data-testid="inv-categories">
      <PageHeader
        className="inv-page-header"
        title={t('menu.categoryList')}
        hint={t('category.hint')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing({ row: null })}
            data-testid="inv-category-add"
          >
            {t('category.add')}
          </Button>
        }
      />
      <div className="inv-toolbar">
        <SearchBox
          placeholder={t('category.search')}
          onSearch={(keyword) => filter({ keyword })}
          testId="inv-category-search"
        />
        <FilterSelect<CategoryKind>
          label={t('fields.kind')}
          placeholder={t('category.allKinds')}
          value={filters.kind}
          options={CATEGORY_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
          onChange={(kind) => filter({ kind })}
          testId="inv-category-kind-filter"
        />
        <span className="inv-toolbar-end">
          <ExportButton<CategoryRow>
            load={() => allPages<CategoryRow>('/inventory/category/list', filters)}
            columns={exportColumns}
            fileName={t('menu.categoryList')}
            testId="inv-category-export"
          />
        </span>
      </div>
      <PagedTable<CategoryRow>
        testId="inv-category-table"
        query={categories}
        pagination={pagination}
        onChange={onSort}
        columns={columns}
        scrollX={1100}
        empty={filtered ? t('category.noMatch') : t('category.empty')}
      />
      <CategoryModal
        open={editing !== null}
        editing={editing?.row ?? null}
        onClose={() => setEditing(null)}
        onDone={refresh}
      />
    </Card>
  );
}
