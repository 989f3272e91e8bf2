import { useQueryClient } from '@tanstack/react-query';
import { App, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePaging } from '../../../shared/paging';
import { gasApi, gasKeys, type ReferenceMaterial, useReferences } from '../api';
import { GasListCard } from '../components/GasListCard';
import { ReferenceModal } from '../components/ReferenceModal';
import { ReferenceValues } from '../components/ReferenceValues';
import { allRows, referenceColumns } from '../exports';
import { today } from '../model';
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
  const { paging, pagination, reset, stepBackIfEmpty, onSort } = usePaging();
  const [keyword, setKeyword] = useState('');
  const references = useReferences({ ...paging, keyword });

  const refresh = () => void queryClient.invalidateQueries({ queryKey: gasKeys.all });

  /** a new search starts at page 1 */
  const search = (value: string) => {
    setKeyword(value.trim());
    reset();
  };

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

  const expired = (row: ReferenceMaterial) =>
    row.expiresOn < today() ? <Tag color="red">{t('certs.expired', '已过期')}</Tag> : null;

  const columns: ColumnsType<ReferenceMaterial> = [
    {
      title: t('fields.name', '名称'),
      dataIndex: 'name',
      sorter: true,
      width: 170,
      render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
    },
    {
      title: t('fields.refCertificateNo', '证书编号'),
      dataIndex: 'certificateNo',
      sorter: true,
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
      sorter: true,
      width: 150,
      render: (v: string, row) => (
        <span className="gas-number">
          {v} {expired(row)}
        </span>
      ),
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
  ];

  return (
    <GasListCard<ReferenceMaterial>
      testId="gas-reference"
      testPrefix="gas-reference"
      title={t('menu.referenceMaterial')}
      hint={t('reference.hint', '质量控制分析所用的有证标准物质；证书的溯源声明列出所用标准物质。')}
      addLabel={t('reference.add', '新增标准物质')}
      searchPlaceholder={t('reference.search', '搜索名称、证书编号、发证机构或平衡气')}
      onSearch={search}
      query={references}
      rows={references.data?.list ?? []}
      pagination={pagination(references.data)}
      onSort={onSort}
      columns={columns}
      phoneColumns={phoneColumns}
      scrollX={1010}
      actions={{
        width: 140,
        deleteConfirm: (row) =>
          t('reference.deleteConfirm', '确定删除标准物质“{{name}}”吗？', { name: row.name }),
        onDelete: remove,
      }}
      emptyText={
        keyword
          ? t('reference.noMatch', '没有符合“{{keyword}}”的标准物质', { keyword })
          : t('reference.empty', '还没有标准物质。添加质量控制分析所用的有证标准物质及其认定值。')
      }
      modal={(modal) => <ReferenceModal {...modal} onDone={refresh} />}
      exportList={{
        load: () => allRows<ReferenceMaterial>('/gas/reference/list', { keyword }),
        columns: referenceColumns(t),
        fileName: t('menu.referenceMaterial'),
      }}
    />
  );
}
