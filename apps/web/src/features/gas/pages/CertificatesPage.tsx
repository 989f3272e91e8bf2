import { FileDoneOutlined, FilePdfOutlined, StopOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Grid, Input, Segmented, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ExportButton } from '../../../shared/ExportButton';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { usePaging } from '../../../shared/paging';
import { type Cylinder, gasApi, useCylinders } from '../api';
import { CertificateModal } from '../components/CertificateModal';
import { CylinderValues } from '../components/CylinderValues';
import { RevokeModal } from '../components/RevokeModal';
import { allRows, certificateColumns } from '../exports';
import { gasPaths, today } from '../model';
import '../gas.css';

type View = 'passed' | 'certified';

const dash = <span className="gas-muted">—</span>;

/**
 * /setgas/certandreport (gm_cert_report): cylinders that passed quality control wait for their
 * certificate of analysis; certified ones download it as a PDF, in Chinese or English.
 */
export default function CertificatesPage() {
  const { t } = useTranslation('gas');
  const { paging, pagination, reset, onSort } = usePaging();
  const [keyword, setKeyword] = useState('');
  const [view, setView] = useState<View>('passed');
  const cylinders = useCylinders({ ...paging, keyword, status: view });
  const [issuing, setIssuing] = useState<Cylinder | null>(null);
  const [revoking, setRevoking] = useState<Cylinder | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);
  const wide = Grid.useBreakpoint().md === true;

  const download = async (row: Cylinder, lang: 'zh' | 'en') => {
    setDownloading(`${row.id}-${lang}`);
    try {
      await gasApi.downloadCertificate(row, lang);
    } catch {
      // the download showed the error
    } finally {
      setDownloading(null);
    }
  };

  const pdfButtons = (row: Cylinder) => (
    <Space size={0} wrap>
      {(['zh', 'en'] as const).map((lang) => (
        <Button
          key={lang}
          type="link"
          size="small"
          icon={<FilePdfOutlined />}
          loading={downloading === `${row.id}-${lang}`}
          onClick={() => download(row, lang)}
          data-testid={`gas-cert-pdf-${lang}-${row.id}`}
        >
          {lang === 'zh' ? t('certs.pdfZh', '中文 PDF') : t('certs.pdfEn', 'English PDF')}
        </Button>
      ))}
      <Button
        type="link"
        size="small"
        danger
        icon={<StopOutlined />}
        onClick={() => setRevoking(row)}
        data-testid={`gas-cert-revoke-${row.id}`}
      >
        {t('certs.revoke', '撤销证书')}
      </Button>
    </Space>
  );

  /** a certificate's number, with the revoked one it replaces; a cylinder's revoked ones */
  const certificateNumber = (row: Cylinder) => (
    <span className="gas-product-cell">
      <span className="gas-number">{row.certificate?.number}</span>
      {row.certificate?.replaces ? (
        <span className="gas-muted gas-number" data-testid={`gas-cert-replaces-${row.id}`}>
          {t('certs.replaces', '替代 {{number}}', { number: row.certificate.replaces })}
        </span>
      ) : null}
    </span>
  );
  const revokedMark = (row: Cylinder) => {
    const last = row.revokedCertificates.at(-1);
    if (!last) return null;
    return (
      <Tooltip
        title={row.revokedCertificates
          .map((c) => `${c.number} · ${c.revokedAt.slice(0, 10)} · ${c.reason}`)
          .join('\n')}
      >
        <Tag color="orange" data-testid={`gas-cert-revoked-${row.id}`}>
          {t('certs.revokedCount', '已撤销 {{count}} 份', { count: row.revokedCertificates.length })}
        </Tag>
      </Tooltip>
    );
  };

  const issueButton = (row: Cylinder) => (
    <Button
      type="link"
      size="small"
      icon={<FileDoneOutlined />}
      onClick={() => setIssuing(row)}
      data-testid={`gas-cert-issue-${row.id}`}
    >
      {t('certs.issue', '出具证书')}
    </Button>
  );

  const expiry = (row: Cylinder) => {
    const c = row.certificate;
    if (!c) return dash;
    return (
      <span className="gas-number">
        {c.expiresOn} {c.expiresOn < today() ? <Tag color="red">{t('certs.expired', '已过期')}</Tag> : null}
      </span>
    );
  };

  const base: ColumnsType<Cylinder> = [
    {
      title: t('fields.serialNumber', '气瓶编号'),
      dataIndex: 'serialNumber',
      sorter: true,
      width: 150,
      render: (sn: string, row) => (
        <span className="gas-product-cell">
          <Typography.Text strong>{sn}</Typography.Text>
          {revokedMark(row)}
        </span>
      ),
    },
    {
      title: t('fields.product', '产品'),
      dataIndex: 'productName',
      sorter: true,
      width: 150,
      ellipsis: true,
      render: (name: string) => name || dash,
    },
    {
      title: t('fields.gravimetricValues', '称量定值'),
      key: 'values',
      width: 240,
      render: (_, row) => <CylinderValues cylinder={row} />,
    },
  ];
  const columns: ColumnsType<Cylinder> =
    view === 'passed'
      ? [
          ...base,
          {
            title: t('common.actions', '操作'),
            key: 'actions',
            width: 130,
            fixed: wide ? 'right' : undefined,
            render: (_, row) => issueButton(row),
          },
        ]
      : [
          ...base,
          {
            title: t('fields.certificateNo', '证书编号'),
            key: 'number',
            width: 200,
            render: (_, row) => certificateNumber(row),
          },
          {
            title: t('fields.certifiedOn', '定值日期'),
            key: 'certifiedOn',
            width: 110,
            render: (_, row) => <span className="gas-number">{row.certificate?.certifiedOn}</span>,
          },
          {
            title: t('fields.expiresOn', '有效期至'),
            key: 'expiresOn',
            width: 150,
            render: (_, row) => expiry(row),
          },
          {
            title: t('certs.download', '下载证书'),
            key: 'actions',
            width: 300,
            fixed: wide ? 'right' : undefined,
            render: (_, row) => pdfButtons(row),
          },
        ];

  const phoneColumns: ColumnsType<Cylinder> = [
    {
      title: t('fields.serialNumber', '气瓶编号'),
      key: 'cylinder',
      render: (_, row) => (
        <div className="gas-phone-cell">
          <span>
            <Typography.Text strong>{row.serialNumber}</Typography.Text> {revokedMark(row)}
          </span>
          {row.productName ? <span className="gas-muted">{row.productName}</span> : null}
          <CylinderValues cylinder={row} />
          {row.certificate ? (
            <span className="gas-muted gas-number">
              {row.certificate.number} · {t('fields.expiresOn', '有效期至')} {expiry(row)}
            </span>
          ) : null}
          {row.certificate?.replaces ? (
            <span className="gas-muted gas-number">
              {t('certs.replaces', '替代 {{number}}', { number: row.certificate.replaces })}
            </span>
          ) : null}
          {view === 'passed' ? issueButton(row) : pdfButtons(row)}
        </div>
      ),
    },
  ];

  return (
    <Card variant="borderless" data-testid="gas-certificates">
      <PageHeader
        title={t('menu.certAndReport')}
        hint={t('certs.hint', '为通过质量控制的气瓶出具分析证书，并下载中文或英文 PDF（带公司标志）。')}
      />
      <div className="gas-toolbar">
        <Segmented<View>
          value={view}
          onChange={(value) => {
            setView(value);
            reset();
          }}
          options={[
            { value: 'passed', label: t('certs.toIssue', '待出证书') },
            { value: 'certified', label: t('certs.issued', '已出证书') },
          ]}
          data-testid="gas-cert-view"
        />
        <Input.Search
          className="gas-search"
          allowClear
          placeholder={t('quality.search', '搜索气瓶编号或产品')}
          onSearch={(value) => {
            setKeyword(value.trim());
            reset();
          }}
          data-testid="gas-cert-search"
        />
        <ExportButton<Cylinder>
          load={() => allRows<Cylinder>('/gas/cylinder/list', { keyword, status: view })}
          columns={certificateColumns(t, view === 'certified')}
          fileName={`${t('menu.certAndReport')}-${view === 'passed' ? t('certs.toIssue', '待出证书') : t('certs.issued', '已出证书')}`}
          testId="gas-cert-export"
        />
      </div>
      {cylinders.isError ? <LoadFailed onRetry={() => void cylinders.refetch()} /> : null}
      <Table<Cylinder>
        onChange={onSort}
        rowKey="id"
        size="middle"
        columns={wide ? columns : phoneColumns}
        dataSource={cylinders.data?.list ?? []}
        loading={cylinders.isFetching}
        pagination={pagination(cylinders.data)}
        scroll={wide ? { x: view === 'passed' ? 700 : 1190 } : undefined}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                keyword ? (
                  t('quality.noMatch', '没有符合条件的气瓶')
                ) : view === 'passed' ? (
                  <span>
                    {t('certs.emptyPassed', '没有待出证书的气瓶：气瓶须先通过质量控制。')}{' '}
                    <Link to={gasPaths.quality}>{t('certs.toQuality', '前往质量控制')}</Link>
                  </span>
                ) : (
                  t('certs.emptyIssued', '还没有出具过证书。')
                )
              }
            />
          ),
        }}
        data-testid="gas-cert-table"
      />
      <RevokeModal
        cylinder={revoking}
        onClose={() => setRevoking(null)}
        onRevoked={() => {
          setView('passed');
          reset();
        }}
      />
      <CertificateModal
        cylinder={issuing}
        onClose={() => setIssuing(null)}
        onIssued={() => {
          setView('certified');
          reset();
        }}
      />
    </Card>
  );
}
