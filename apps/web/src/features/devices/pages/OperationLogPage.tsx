/**
 * A device's operation log (/operationLog/{deviceId}/{productId}/{serialNumber}/{typeId}/
 * {deviceName}, a full-screen page): every bind, unbind, edit, configuration push, upgrade,
 * command, passthrough and event, with who, when, the result and the detail; by kind and time,
 * newest first, paged; the filtered rows as CSV. Days are the company's days.
 */
import { ArrowLeftOutlined, DownloadOutlined } from '@ant-design/icons';
import { OPERATION_KINDS, type OperationKind } from '@platform/domain';
import {
  App,
  Button,
  Card,
  DatePicker,
  Empty,
  Flex,
  Grid,
  Pagination,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { usePaging } from '../../../shared/paging';
import { formatTime, fromPickerValue } from '../../../shared/time';
import { ZoneHint } from '../../../shared/ZoneHint';
import { allLogRows, type LogQuery, type LogRow, useDevice, useDeviceLog } from '../api';
import { OnlineCell, StatusTag } from '../components/DeviceBits';
import { saveText, toCsv } from '../csv';
import { describeLog } from '../logText';
import { useDeviceListPath } from '../paths';
import '../devices.css';

const KIND_COLORS: Record<OperationKind, string> = {
  bind: 'green',
  unbind: 'volcano',
  edit: 'blue',
  config: 'geekblue',
  upgrade: 'purple',
  command: 'cyan',
  passthrough: 'gold',
  event: 'default',
};

const RESULT_COLORS: Record<LogRow['result'], string> = {
  ok: 'success',
  failed: 'error',
  pending: 'processing',
};

/** the instant a company day starts */
function dayStart(day: Dayjs): string {
  return fromPickerValue(day.startOf('day'));
}

export default function OperationLogPage() {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const params = useParams();
  const deviceId = Number(params.deviceId);
  const listPath = useDeviceListPath();
  const device = useDevice(Number.isInteger(deviceId) && deviceId > 0 ? deviceId : null);
  const { paging, pagination, reset } = usePaging(20);
  const [kind, setKind] = useState<OperationKind | undefined>();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [exporting, setExporting] = useState(false);
  const wide = Grid.useBreakpoint().md === true;

  const query: LogQuery = {
    kind,
    from: range ? dayStart(range[0]) : undefined,
    // the end day is included: up to the start of the day after it
    to: range ? dayStart(range[1].add(1, 'day')) : undefined,
  };
  const log = useDeviceLog(deviceId, query, paging);
  const name = device.data?.name ?? params.deviceName ?? '';
  const sn = device.data?.serialNumber ?? params.serialNumber ?? '';

  const actorText = (row: LogRow) =>
    row.actor.type === 'user'
      ? (row.actor.name ?? t('log.formerUser', '已离开的成员'))
      : row.actor.type === 'device'
        ? t('log.actorDevice', '设备')
        : t('log.actorSystem', '系统');

  const columns: ColumnsType<LogRow> = [
    {
      title: (
        <Space size={4}>
          {t('log.at', '时间')}
          <ZoneHint />
        </Space>
      ),
      dataIndex: 'at',
      width: 180,
      render: (at: string) => formatTime(at),
    },
    {
      title: t('log.kind', '操作'),
      dataIndex: 'kind',
      width: 110,
      render: (value: OperationKind) => (
        <Tag color={KIND_COLORS[value]} data-testid="log-kind" data-kind={value}>
          {t(`kind.${value}`, value)}
        </Tag>
      ),
    },
    {
      title: t('log.result', '结果'),
      dataIndex: 'result',
      width: 90,
      render: (value: LogRow['result']) => (
        <Tag color={RESULT_COLORS[value]}>{t(`result.${value}`, value)}</Tag>
      ),
    },
    { title: t('log.actor', '操作者'), key: 'actor', width: 140, render: (_, row) => actorText(row) },
    {
      title: t('log.detail', '详情'),
      key: 'detail',
      render: (_, row) => {
        const { text, extra } = describeLog(row, t);
        return (
          <Space orientation="vertical" size={0} style={{ maxWidth: '100%' }}>
            <span data-testid="log-detail">{text}</span>
            {extra ? (
              <Tooltip title={<span className="dv-small dv-mono">{extra}</span>}>
                <Typography.Text
                  type="secondary"
                  className="dv-small dv-mono"
                  ellipsis
                  style={{ maxWidth: 420 }}
                >
                  {extra}
                </Typography.Text>
              </Tooltip>
            ) : null}
          </Space>
        );
      },
    },
  ];

  const exportCsv = async () => {
    setExporting(true);
    try {
      const rows = await allLogRows(deviceId, query);
      const table = [
        [
          t('log.at', '时间'),
          t('log.kind', '操作'),
          t('log.result', '结果'),
          t('log.actor', '操作者'),
          t('log.detail', '详情'),
          t('log.values', '数据'),
        ],
        ...rows.map((row) => {
          const { text, extra } = describeLog(row, t);
          return [
            formatTime(row.at),
            t(`kind.${row.kind}`, row.kind),
            t(`result.${row.result}`, row.result),
            actorText(row),
            text,
            extra ?? '',
          ];
        }),
      ];
      saveText(toCsv(table), `${name || sn}-${t('log.fileName', '操作日志')}.csv`);
      message.success(t('log.exported', '已导出 {{n}} 条', { n: rows.length }));
    } catch {
      // the http client showed why
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="dv-standalone" data-testid="operation-log-page">
      <Card
        variant="borderless"
        title={
          <Flex gap={12} align="center" wrap>
            {listPath ? (
              <Link to={listPath} data-testid="log-back">
                <ArrowLeftOutlined /> {t('log.back', '设备列表')}
              </Link>
            ) : null}
            <span>{t('log.title', '操作日志')}</span>
          </Flex>
        }
      >
        <Flex gap={8} align="center" wrap className="dv-log-device">
          <Typography.Text strong>{name}</Typography.Text>
          <Typography.Text type="secondary" className="dv-mono dv-small">
            {sn}
          </Typography.Text>
          {device.data ? (
            <>
              <StatusTag device={device.data} />
              <OnlineCell device={device.data} compact />
            </>
          ) : null}
        </Flex>
        <div className="dv-toolbar">
          <Flex gap={8} wrap className="dv-filters">
            <Select<OperationKind>
              allowClear
              className="dv-filter"
              placeholder={t('log.allKinds', '全部操作')}
              value={kind}
              onChange={(value) => {
                setKind(value);
                reset();
              }}
              options={OPERATION_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`, k) }))}
              data-testid="log-filter-kind"
            />
            <DatePicker.RangePicker
              value={range}
              onChange={(value) => {
                setRange(value?.[0] && value[1] ? [value[0], value[1]] : null);
                reset();
              }}
              data-testid="log-filter-range"
            />
          </Flex>
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            disabled={!log.data?.total}
            onClick={exportCsv}
            data-testid="log-export"
          >
            {t('log.export', '导出 CSV')}
          </Button>
        </div>
        {wide ? (
          <Table<LogRow>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={log.data?.list ?? []}
            loading={log.isFetching && !log.data}
            pagination={pagination(log.data)}
            scroll={{ x: 860 }}
            onRow={(row) => ({ 'data-testid': `log-row-${row.kind}` }) as never}
            locale={{
              emptyText: (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={
                    kind || range
                      ? t('log.noMatch', '没有符合条件的记录')
                      : t('log.empty', '该设备还没有操作记录')
                  }
                />
              ),
            }}
            data-testid="log-table"
          />
        ) : (
          <LogCards
            rows={log.data?.list ?? []}
            total={log.data?.total ?? 0}
            pageNum={paging.pageNum}
            pageSize={paging.pageSize}
            onPage={(pageNum, pageSize) => pagination(log.data).onChange?.(pageNum, pageSize)}
            actorText={actorText}
            empty={
              kind || range ? t('log.noMatch', '没有符合条件的记录') : t('log.empty', '该设备还没有操作记录')
            }
          />
        )}
      </Card>
    </div>
  );
}

/** The log on a phone: one card per operation, nothing to scroll sideways. */
function LogCards({
  rows,
  total,
  pageNum,
  pageSize,
  onPage,
  actorText,
  empty,
}: {
  rows: LogRow[];
  total: number;
  pageNum: number;
  pageSize: number;
  onPage: (pageNum: number, pageSize: number) => void;
  actorText: (row: LogRow) => string;
  empty: string;
}) {
  const { t } = useTranslation('devices');
  if (rows.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  return (
    <Flex vertical gap={8} data-testid="log-table">
      {rows.map((row) => {
        const { text, extra } = describeLog(row, t);
        return (
          <Card key={row.id} size="small" data-testid={`log-row-${row.kind}`}>
            <Flex justify="space-between" gap={8} wrap>
              <Space size={4}>
                <Tag color={KIND_COLORS[row.kind]}>{t(`kind.${row.kind}`, row.kind)}</Tag>
                <Tag color={RESULT_COLORS[row.result]}>{t(`result.${row.result}`, row.result)}</Tag>
              </Space>
              <Typography.Text type="secondary" className="dv-small">
                {formatTime(row.at)}
              </Typography.Text>
            </Flex>
            <div className="dv-gap-top">{text}</div>
            {extra ? (
              <Typography.Paragraph type="secondary" className="dv-small dv-mono" ellipsis={{ rows: 2 }}>
                {extra}
              </Typography.Paragraph>
            ) : null}
            <Typography.Text type="secondary" className="dv-small">
              {actorText(row)}
            </Typography.Text>
          </Card>
        );
      })}
      <Flex justify="center">
        <Pagination size="small" current={pageNum} pageSize={pageSize} total={total} onChange={onPage} />
      </Flex>
    </Flex>
  );
}
