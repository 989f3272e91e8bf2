import { EditOutlined, FormOutlined, SettingOutlined, TableOutlined } from '@ant-design/icons';
import { Button, Empty, Grid, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HTMLAttributes, Key } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMinute } from '../../../shared/time';
import type { CabinNode } from '../api';
import { can } from '../cabin';
import { KIND_COLORS, NodeIcon } from './NodeIcon';

function pathText(path: CabinNode['path']): string {
  if (Array.isArray(path)) return path.join(' / ');
  return path ?? '';
}

/** Entries of one directory, or the search results (with their path). */
export function EntryTable({
  rows,
  loading,
  searching,
  selectedKeys,
  onSelectKeys,
  onOpen,
  onRecords,
  onForm,
  onConfigure,
  emptyText,
}: {
  rows: CabinNode[];
  loading: boolean;
  searching: boolean;
  selectedKeys: Key[];
  onSelectKeys: (keys: Key[]) => void;
  onOpen: (node: CabinNode) => void;
  onRecords: (node: CabinNode) => void;
  onForm: (node: CabinNode) => void;
  onConfigure: (node: CabinNode) => void;
  emptyText: string;
}) {
  const { t } = useTranslation('datacabin');
  // phones: the kind shows in the icon; name and actions fit without scrolling sideways
  const wide = Grid.useBreakpoint().sm === true;

  const columns: ColumnsType<CabinNode> = [
    {
      title: t('cabin.name', '名称'),
      dataIndex: 'name',
      render: (_: string, node) => (
        <Space size={8} className="dc-entry-name">
          <NodeIcon type={node.type} kind={node.kind} />
          <Typography.Link onClick={() => onOpen(node)} data-testid={`entry-${node.name}`}>
            {node.name}
          </Typography.Link>
        </Space>
      ),
    },
    ...(searching
      ? [
          {
            title: t('cabin.path', '路径'),
            key: 'path',
            ellipsis: true,
            render: (_: unknown, node: CabinNode) => (
              <Typography.Text type="secondary" data-testid={`entry-path-${node.name}`}>
                {pathText(node.path) || t('cabin.root', '数据舱')}
              </Typography.Text>
            ),
          },
        ]
      : []),
    {
      title: t('cabin.type', '类型'),
      key: 'type',
      width: 150,
      responsive: ['sm'],
      render: (_: unknown, node) =>
        node.type === 'dataItem' && node.kind ? (
          <Tag color={KIND_COLORS[node.kind]}>{t(`kind.${node.kind}`, String(node.kind))}</Tag>
        ) : (
          <Typography.Text type="secondary">{t(`type.${node.type}`, node.type)}</Typography.Text>
        ),
    },
    {
      title: t('cabin.updatedAt', '更新时间'),
      dataIndex: 'updatedAt',
      width: 170,
      responsive: ['md'],
      render: (value: string) => (value ? formatMinute(value) : '—'),
    },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: 132,
      render: (_: unknown, node) =>
        node.type === 'dataItem' ? (
          <Space size={0}>
            <Tooltip title={t('cabin.records', '数据记录')}>
              <Button
                type="text"
                size="small"
                icon={<TableOutlined />}
                onClick={() => onRecords(node)}
                aria-label={t('cabin.records', '数据记录')}
              />
            </Tooltip>
            {node.kind === 11 && (
              <Tooltip title={t('cabin.fillForm', '填写表单')}>
                <Button
                  type="text"
                  size="small"
                  icon={<FormOutlined />}
                  disabled={!can.write(node.level)}
                  onClick={() => onForm(node)}
                  aria-label={t('cabin.fillForm', '填写表单')}
                />
              </Tooltip>
            )}
            <Tooltip title={t('cabin.configure', '配置')}>
              <Button
                type="text"
                size="small"
                icon={<SettingOutlined />}
                disabled={!can.admin(node.level)}
                onClick={() => onConfigure(node)}
                aria-label={t('cabin.configure', '配置')}
                data-testid={`entry-config-${node.name}`}
              />
            </Tooltip>
          </Space>
        ) : node.type === 'directory' ? (
          <Button type="text" size="small" icon={<EditOutlined />} onClick={() => onOpen(node)}>
            {t('cabin.open', '打开')}
          </Button>
        ) : null,
    },
  ];

  return (
    <Table<CabinNode>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={rows}
      loading={loading}
      pagination={rows.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
      rowSelection={{ selectedRowKeys: selectedKeys, onChange: onSelectKeys }}
      onRow={(node) => ({ 'data-testid': `row-${node.name}` }) as HTMLAttributes<HTMLElement>}
      scroll={{ x: wide ? 520 : 'max-content' }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} /> }}
      data-testid="cabin-entries"
    />
  );
}
