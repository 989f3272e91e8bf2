/** The device list on a narrow screen (below 992 px): one card per device. */
import { Card, Descriptions, Empty, Flex, Pagination, Spin, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMinute } from '../../../shared/time';
import type { DeviceRow } from '../api';
import { DevicePictureView, OnlineCell, StatusTag } from './DeviceBits';

export function DeviceCards({
  rows,
  loading,
  total,
  pageNum,
  pageSize,
  onPage,
  live,
  empty,
  actions,
  onOpen,
}: {
  rows: DeviceRow[];
  loading: boolean;
  total: number;
  pageNum: number;
  pageSize: number;
  onPage: (pageNum: number, pageSize: number) => void;
  /** ids of rows a live event just changed */
  live: ReadonlySet<number>;
  empty: ReactNode;
  actions: (device: DeviceRow) => ReactNode;
  onOpen: (device: DeviceRow) => void;
}) {
  const { t } = useTranslation('devices');
  if (!loading && rows.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  return (
    <Spin spinning={loading}>
      <Flex vertical gap={12} data-testid="device-cards">
        {rows.map((device) => (
          <Card
            key={device.id}
            size="small"
            className={`dv-card${live.has(device.id) ? ' dv-row-live' : ''}`}
            data-testid={`device-row-${device.serialNumber}`}
          >
            <Flex gap={12} align="start">
              <button type="button" className="dv-card-picture" onClick={() => onOpen(device)}>
                <DevicePictureView picture={device.picture} size={56} preview={false} />
              </button>
              <Flex vertical gap={4} style={{ minWidth: 0, flex: 1 }}>
                <Flex justify="space-between" gap={8} align="center">
                  <Typography.Link
                    strong
                    ellipsis
                    onClick={() => onOpen(device)}
                    data-testid={`device-name-${device.serialNumber}`}
                  >
                    {device.name}
                  </Typography.Link>
                  <StatusTag device={device} />
                </Flex>
                <Typography.Text type="secondary" className="dv-mono dv-small">
                  {device.serialNumber}
                </Typography.Text>
                <OnlineCell device={device} compact />
              </Flex>
            </Flex>
            <Descriptions
              size="small"
              column={2}
              className="dv-gap-top"
              items={[
                { key: 'model', label: t('fields.model', '型号'), children: device.model || '—' },
                {
                  key: 'firmware',
                  label: t('fields.firmware', '固件版本'),
                  children: device.firmware ?? '—',
                },
                {
                  key: 'address',
                  label: t('fields.address', '安装地址'),
                  children: device.address || '—',
                  span: 2,
                },
                {
                  key: 'bound',
                  label: t('fields.firstBoundAt', '首次绑定时间'),
                  children: formatMinute(device.firstBoundAt),
                  span: 2,
                },
              ]}
            />
            <Flex justify="end">{actions(device)}</Flex>
          </Card>
        ))}
        <Flex justify="center">
          <Pagination
            size="small"
            current={pageNum}
            pageSize={pageSize}
            total={total}
            showSizeChanger={false}
            onChange={onPage}
            showTotal={(n) => t('list.total', '共 {{n}} 台', { n })}
          />
        </Flex>
      </Flex>
    </Spin>
  );
}
