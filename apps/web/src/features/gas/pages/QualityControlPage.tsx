import { DeleteOutlined, ExperimentOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Grid, Input, Popconfirm, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ExportButton } from '../../../shared/ExportButton';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { usePaging } from '../../../shared/paging';
import { type Cylinder, gasApi, gasKeys, type CylinderStatus as Status, useCylinders } from '../api';
import { AnalysisModal } from '../components/AnalysisModal';
import { CylinderStatus, useStatusOptions } from '../components/CylinderStatus';
import { CylinderValues } from '../components/CylinderValues';
import { allRows, cylinderColumns } from '../exports';
import { gasPaths } from '../model';
import '../gas.css';

const dash = <span className="gas-muted">—</span>;

/**
 * /setgas/qualityctrl (gm_quality_ctrl): the filled cylinders, saved from the calculation page;
 * each gets its analysis results and passes or fails ISO 6142-1's verification.
 */
export default function QualityControlPage() {
  const { t, i18n } = useTranslation('gas');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { paging, pagination, reset, stepBackIfEmpty, onSort } = usePaging();
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<Status | undefined>();
  const query = { ...paging, keyword, status };
  const cylinders = useCylinders(query);
  const [analysing, setAnalysing] = useState<Cylinder | null>(null);
  const wide = Grid.useBreakpoint().md === true;
  const statusOptions = useStatusOptions();
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : null);

  const remove = async (row: Cylinder) => {
    try {
      const envelope = await gasApi.deleteCylinder(row.id);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: gasKeys.all });
      stepBackIfEmpty(queryClient.getQueryData(gasKeys.cylinders(query)));
    } catch {
      // the http client showed the error
    }
  };

  const actions = (row: Cylinder, labelled: boolean) => {
    const analyse = t('quality.analyse', '录入分析');
    const del = t('common.delete', '删除');
    const certified = row.status === 'certified';
    return (
      <Space size={0}>
        <Button
          type="link"
          size="small"
          icon={<ExperimentOutlined />}
          aria-label={analyse}
          disabled={certified}
          onClick={() => setAnalysing(row)}
          data-testid={`gas-cylinder-analyse-${row.id}`}
        >
          {labelled ? analyse : null}
        </Button>
        <Popconfirm
          title={t('quality.deleteConfirm', '确定删除气瓶 {{sn}} 的记录吗？', { sn: row.serialNumber })}
          okText={del}
          okButtonProps={{ danger: true }}
          cancelText={t('common.cancel', '取消')}
          onConfirm={() => remove(row)}
          disabled={certified}
        >
          <Button
            type="link"
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={del}
            disabled={certified}
            data-testid={`gas-cylinder-delete-${row.id}`}
          >
            {labelled ? del : null}
          </Button>
        </Popconfirm>
      </Space>
    );
  };

  const columns: ColumnsType<Cylinder> = [
    {
      title: t('fields.serialNumber', '气瓶编号'),
      dataIndex: 'serialNumber',
      sorter: true,
      width: 150,
      render: (sn: string) => <Typography.Text strong>{sn}</Typography.Text>,
    },
    {
      title: t('fields.product', '产品'),
      dataIndex: 'productName',
      sorter: true,
      width: 160,
      ellipsis: true,
      render: (name: string) => name || dash,
    },
    {
      title: t('fields.gravimetricValues', '称量定值'),
      key: 'values',
      width: 260,
      render: (_, row) => <CylinderValues cylinder={row} />,
    },
    {
      title: t('fields.status', '状态'),
      dataIndex: 'status',
      sorter: true,
      width: 110,
      render: (s: Status) => <CylinderStatus status={s} />,
    },
    {
      title: t('fields.analysedAt', '分析时间'),
      dataIndex: 'analysedAt',
      sorter: true,
      width: 170,
      render: (iso: string | null) => when(iso) ?? dash,
    },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      // "Enter analysis" and "Delete" side by side in English too
      width: 230,
      fixed: wide ? 'right' : undefined,
      render: (_, row) => actions(row, true),
    },
  ];

  const phoneColumns: ColumnsType<Cylinder> = [
    {
      title: t('fields.serialNumber', '气瓶编号'),
      key: 'cylinder',
      render: (_, row) => (
        <div className="gas-phone-cell">
          <span>
            <Typography.Text strong>{row.serialNumber}</Typography.Text>{' '}
            <CylinderStatus status={row.status} />
          </span>
          {row.productName ? <span className="gas-muted">{row.productName}</span> : null}
          <CylinderValues cylinder={row} />
        </div>
      ),
    },
    { title: '', key: 'actions', width: 76, render: (_, row) => actions(row, false) },
  ];

  return (
    <Card variant="borderless" data-testid="gas-quality">
      <PageHeader
        title={t('menu.qualityControl')}
        hint={t(
          'quality.hint',
          '在组分计算页称量定值后保存的气瓶。录入分析结果，与称量值比对验证；通过后可出具证书。',
        )}
      />
      <div className="gas-toolbar">
        <Input.Search
          className="gas-search"
          allowClear
          placeholder={t('quality.search', '搜索气瓶编号或产品')}
          onSearch={(value) => {
            setKeyword(value.trim());
            reset();
          }}
          data-testid="gas-cylinder-search"
        />
        <Select<Status>
          allowClear
          className="gas-filter"
          placeholder={t('quality.allStatuses', '全部状态')}
          value={status}
          options={[...statusOptions]}
          onChange={(value) => {
            setStatus(value);
            reset();
          }}
          aria-label={t('fields.status', '状态')}
          data-testid="gas-cylinder-status-filter"
        />
        <ExportButton<Cylinder>
          load={() => allRows<Cylinder>('/gas/cylinder/list', { keyword, status })}
          columns={cylinderColumns(t)}
          fileName={t('menu.qualityControl')}
          testId="gas-cylinder-export"
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
        scroll={wide ? { x: 1020 } : undefined}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                keyword || status ? (
                  t('quality.noMatch', '没有符合条件的气瓶')
                ) : (
                  <span>
                    {t('quality.empty', '还没有气瓶。在产品的组分计算页称量定值后，保存为气瓶。')}{' '}
                    <Link to={gasPaths.products}>{t('quality.toProducts', '前往产品列表')}</Link>
                  </span>
                )
              }
            />
          ),
        }}
        data-testid="gas-cylinder-table"
      />
      <AnalysisModal cylinder={analysing} onClose={() => setAnalysing(null)} />
    </Card>
  );
}
