import { DeleteOutlined, EditOutlined, FunctionOutlined } from '@ant-design/icons';
import { Button, Empty, Grid, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType, TablePaginationConfig } from 'antd/es/table';
import type { ReactNode } from 'react';
import type { Packet } from '../api';
import { FrameText } from './FrameText';
import { useLabels } from './labels';

/**
 * The packets of the company, as the data package page (edit, delete) and the parsing page
 * (configure the parser) list them.
 */
export function PacketTable({
  mode,
  packets,
  loading,
  pagination,
  empty,
  onEdit,
  onParse,
  onDelete,
}: {
  mode: 'packets' | 'parsing';
  packets: Packet[];
  loading: boolean;
  pagination: TablePaginationConfig;
  empty: ReactNode;
  onEdit?: (packet: Packet) => void;
  onParse?: (packet: Packet) => void;
  onDelete?: (packet: Packet) => void;
}) {
  const { t, serialValueType, sampling } = useLabels();
  // on a phone the actions stack in a narrow column that scrolls with the rest
  const narrow = !Grid.useBreakpoint().md;

  const parserTag = (row: Packet) =>
    row.parserValues == null ? (
      <Tag>{t('packets.noParser', '未配置解析')}</Tag>
    ) : (
      <Tag color="green">{t('packets.parserValues', '{{count}} 个值', { count: row.parserValues })}</Tag>
    );

  const columns: ColumnsType<Packet> = [
    {
      title: t('packet.name', '名称'),
      dataIndex: 'name',
      width: 180,
      render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
    },
    {
      title: t('packet.frame', '报文（HEX）'),
      dataIndex: 'frame',
      render: (_: string, row) => (
        <FrameText frame={row.frame} crc={row.crc} testId={`packet-frame-${row.name}`} />
      ),
    },
    ...(mode === 'packets'
      ? ([
          {
            title: t('packet.valueType', '数据类型'),
            dataIndex: 'valueType',
            width: 110,
            render: (v: Packet['valueType']) => serialValueType(v),
          },
          { title: t('packet.encoding', '编码'), dataIndex: 'encoding', width: 100 },
          {
            title: t('packet.sampling', '采集频率'),
            dataIndex: 'samplingId',
            width: 110,
            render: (id: Packet['samplingId']) => sampling(id),
          },
        ] satisfies ColumnsType<Packet>)
      : []),
    { title: t('packets.parser', '解析'), key: 'parser', width: 120, render: (_, row) => parserTag(row) },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: mode === 'packets' && !narrow ? 260 : 120,
      fixed: narrow ? undefined : 'right',
      render: (_, row) => (
        <Space size={0} wrap={narrow || mode === 'parsing'}>
          {onEdit ? (
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              onClick={() => onEdit(row)}
              data-testid={`packet-edit-${row.name}`}
            >
              {t('common.edit', '编辑')}
            </Button>
          ) : null}
          {onParse ? (
            <Button
              type="link"
              size="small"
              icon={<FunctionOutlined />}
              onClick={() => onParse(row)}
              data-testid={`packet-parse-${row.name}`}
            >
              {t('packets.configureParser', '配置解析')}
            </Button>
          ) : null}
          {onDelete ? (
            <Popconfirm
              title={t('packets.deleteConfirm', '确定删除数据包“{{name}}”吗？', { name: row.name })}
              description={t('packets.deleteHint', '它的解析配置会一并删除，已存储的数据不受影响。')}
              okText={t('common.ok', '确定')}
              okButtonProps={{ danger: true }}
              cancelText={t('common.cancel', '取消')}
              onConfirm={() => onDelete(row)}
            >
              <Button
                type="link"
                size="small"
                danger
                icon={<DeleteOutlined />}
                data-testid={`packet-delete-${row.name}`}
              >
                {t('common.delete', '删除')}
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <Table<Packet>
      rowKey="id"
      columns={columns}
      dataSource={packets}
      loading={loading}
      pagination={pagination}
      scroll={{ x: mode === 'packets' ? 1080 : 720 }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
      data-testid={`${mode}-table`}
    />
  );
}
