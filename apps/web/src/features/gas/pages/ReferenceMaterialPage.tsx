import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Grid, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePaging } from '../../../shared/paging';
import { gasApi, gasKeys, type ReferenceMaterial, useReferences } from '../api';
import { LoadFailed } from '../components/LoadFailed';
import { ReferenceModal } from '../components/ReferenceModal';
import { ReferenceValues } from '../components/ReferenceValues';
import '../gas.css';

const dash = <span className="gas-muted">—</span>;

/**
 * /setgas/referencematerial (gm_ref_material): the certified reference materials quality control
 * analyses against; a certificate names them in its traceability statement.
 */
export default function ReferenceMaterialPage() {
  const { t } = useTranslation('gas');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { paging, pagination, reset, stepBackIfEmpty } = usePaging();
  const [keyword, setKeyword] = useState('');
  const references = useReferences({ ...paging, keyword });
  const [modal, setModal] = useState<{ editing: ReferenceMaterial | null } | null>(null);
  const wide = Grid.useBreakpoint().md === true;

  const refresh = () => void queryClient.invalidateQueries({ queryKey: gasKeys.all });

  const remove = async (row: ReferenceMaterial) => {
    try {
      const envelope = await gasApi.deleteReference(row.id);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: gasKeys.all });
      stepBackIfEmpty(queryClient.getQueryData(gasKeys.references({ ...paging, keyword })));
    } catch {
      // the http client showed the error
    }
  };

  /** Edit and delete; on a phone as icons, named for screen readers. */
  const actions = (row: ReferenceMaterial, labelled: boolean) => {
    const edit = t('common.edit', '编辑');
    const del = t('common.delete', '删除');
    return (
      <Space size={0}>
        <Button
          type="link"
          size="small"
          icon={<EditOutlined />}
          aria-label={edit}
          onClick={() => setModal({ editing: row })}
          data-testid={`gas-reference-edit-${row.id}`}
        >
          {labelled ? edit : null}
        </Button>
        <Popconfirm
          title={t('reference.deleteConfirm', '确定删除标准物质“{{name}}”吗？', { name: row.name })}
          okText={del}
          okButtonProps={{ danger: true }}
          cancelText={t('common.cancel', '取消')}
          onConfirm={() => remove(row)}
        >
          <Button
            type="link"
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={del}
            data-testid={`gas-reference-delete-${row.id}`}
          >
            {labelled ? del : null}
          </Button>
        </Popconfirm>
      </Space>
    );
  };

  const expired = (row: ReferenceMaterial) =>
    row.expiresOn < new Date().toISOString().slice(0, 10) ? (
      <Tag color="red">{t('certs.expired', '已过期')}</Tag>
    ) : null;

  const columns: ColumnsType<ReferenceMaterial> = [
    {
      title: t('fields.name', '名称'),
      dataIndex: 'name',
      width: 170,
      render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
    },
    {
      title: t('fields.refCertificateNo', '证书编号'),
      dataIndex: 'certificateNo',
      width: 150,
      render: (v: string) => <span className="gas-number">{v}</span>,
    },
    {
      title: t('reference.values', '认定值'),
      key: 'values',
      width: 260,
      render: (_, row) => <ReferenceValues reference={row} />,
    },
    {
      title: t('fields.issuer', '发证机构'),
      dataIndex: 'issuer',
      width: 140,
      ellipsis: true,
      render: (v: string) => v || dash,
    },
    {
      title: t('fields.expiresOn', '有效期至'),
      dataIndex: 'expiresOn',
      width: 150,
      render: (v: string, row) => (
        <span className="gas-number">
          {v} {expired(row)}
        </span>
      ),
    },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: 140,
      fixed: wide ? 'right' : undefined,
      render: (_, row) => actions(row, true),
    },
  ];

  const phoneColumns: ColumnsType<ReferenceMaterial> = [
    {
      title: t('fields.name', '名称'),
      key: 'reference',
      render: (_, row) => (
        <div className="gas-phone-cell">
          <Typography.Text strong>{row.name}</Typography.Text>
          <span className="gas-muted gas-number">{row.certificateNo}</span>
          <ReferenceValues reference={row} />
          <span className="gas-muted">
            {t('fields.expiresOn', '有效期至')} {row.expiresOn} {expired(row)}
          </span>
        </div>
      ),
    },
    { title: '', key: 'actions', width: 76, render: (_, row) => actions(row, false) },
  ];

  return (
    <Card variant="borderless" data-testid="gas-reference">
      <div className="gas-header">
        <div>
          <Typography.Title level={4} className="gas-title">
            {t('menu.referenceMaterial')}
          </Typography.Title>
          <Typography.Text type="secondary">
            {t('reference.hint', '质量控制分析所用的有证标准物质；证书的溯源声明列出所用标准物质。')}
          </Typography.Text>
        </div>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setModal({ editing: null })}
          data-testid="gas-reference-add"
        >
          {t('reference.add', '新增标准物质')}
        </Button>
      </div>
      <div className="gas-toolbar">
        <Input.Search
          className="gas-search"
          allowClear
          placeholder={t('reference.search', '搜索名称、证书编号、发证机构或平衡气')}
          onSearch={(value) => {
            setKeyword(value.trim());
            reset();
          }}
          data-testid="gas-reference-search"
        />
      </div>
      {references.isError ? <LoadFailed onRetry={() => void references.refetch()} /> : null}
      <Table<ReferenceMaterial>
        rowKey="id"
        size="middle"
        columns={wide ? columns : phoneColumns}
        dataSource={references.data?.list ?? []}
        loading={references.isFetching}
        pagination={pagination(references.data)}
        scroll={wide ? { x: 1010 } : undefined}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                keyword
                  ? t('reference.noMatch', '没有符合“{{keyword}}”的标准物质', { keyword })
                  : t('reference.empty', '还没有标准物质。添加质量控制分析所用的有证标准物质及其认定值。')
              }
            />
          ),
        }}
        data-testid="gas-reference-table"
      />
      <ReferenceModal
        open={modal !== null}
        editing={modal?.editing ?? null}
        onClose={() => setModal(null)}
        onDone={refresh}
      />
    </Card>
  );
}
