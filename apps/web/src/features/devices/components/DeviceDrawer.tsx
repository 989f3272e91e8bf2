/**
 * A device's detail over its list (`?device=<id>`): every field, the picture, status with its
 * ports, SIM, running configuration, JSON telemetry counts with the last refusal, where it is
 * in the data cabin, and the ways to its other pages. It follows the live socket of the list
 * (the cached detail is patched by live.ts).
 */
import {
  ApiOutlined,
  BarChartOutlined,
  CloudUploadOutlined,
  DesktopOutlined,
  DisconnectOutlined,
  EditOutlined,
  FileSearchOutlined,
  FormOutlined,
  NodeIndexOutlined,
  PartitionOutlined,
  SettingOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import { DATA_PERMISSION } from '@platform/domain';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Flex,
  Grid,
  Result,
  Skeleton,
  Space,
  Statistic,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { formatTime } from '../../../shared/time';
import { type DeviceDetail, useDevice } from '../api';
import { devicePaths, usePermittedPath } from '../paths';
import { useUnbind } from './DeviceActions';
import { DevicePictureView, OnlineCell, StatusTag } from './DeviceBits';
import { PicturePicker } from './PicturePicker';

const time = (value: string | null | undefined) => (value ? formatTime(value) : '—');

function Ports({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  if (device.ports.length === 0)
    return <Typography.Text type="secondary">{t('ports.none', '网关尚未报告端口状态')}</Typography.Text>;
  return (
    <Flex gap={8} wrap data-testid="device-ports">
      {device.ports.map((p) => (
        <Tooltip key={p.port} title={p.ok ? null : p.error}>
          <Tag color={p.ok ? 'success' : 'error'} data-testid={`port-${p.port}`}>
            {t('ports.port', '端口 {{n}}', { n: p.port })}
            {p.ok ? ` · ${t('ports.ok', '正常')}` : ` · ${p.error ?? t('ports.error', '故障')}`}
          </Tag>
        </Tooltip>
      ))}
    </Flex>
  );
}

function Telemetry({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const { telemetry } = device;
  const refusal = telemetry.lastRefusal;
  return (
    <div data-testid="device-telemetry">
      <Flex gap={24} wrap>
        <Statistic title={t('telemetry.ok', '已入库')} value={telemetry.ok} />
        <Statistic
          title={t('telemetry.refused', '被拒绝')}
          value={telemetry.refused}
          styles={telemetry.refused > 0 ? { content: { color: '#cf1322' } } : undefined}
        />
        <Statistic title={t('telemetry.dropped', '未绑定时丢弃')} value={telemetry.dropped} />
      </Flex>
      <Typography.Text type="secondary" className="dv-small">
        {t('telemetry.lastAt', '最近一条：{{time}}', { time: time(telemetry.lastAt) })}
      </Typography.Text>
      {refusal ? (
        <Alert
          className="dv-gap-top"
          type="warning"
          showIcon
          title={t('telemetry.lastRefusal', '最近一次拒绝（{{time}}）', { time: time(refusal.at) })}
          description={
            <span data-testid="device-last-refusal">
              {refusal.message}
              {refusal.field ? ` · ${t('telemetry.field', '字段')}: ${refusal.field}` : ''}
              {refusal.index != null
                ? ` · ${t('telemetry.index', '第 {{n}} 条', { n: refusal.index + 1 })}`
                : ''}
              {refusal.itemId != null ? ` · ${t('telemetry.item', '数据项')} #${refusal.itemId}` : ''}
            </span>
          }
        />
      ) : null}
    </div>
  );
}

export function DeviceDrawer({
  deviceId,
  listPath,
  onClose,
  onEdit,
}: {
  deviceId: number | null;
  listPath: string;
  onClose: () => void;
  onEdit: (device: DeviceDetail) => void;
}) {
  const { t } = useTranslation('devices');
  const screens = Grid.useBreakpoint();
  const navigate = useNavigate();
  const permitted = usePermittedPath();
  const unbind = useUnbind();
  const detail = useDevice(deviceId);
  const device = detail.data;
  const canWrite = (device?.level ?? 0) >= DATA_PERMISSION.write;
  const canAdmin = (device?.level ?? 0) >= DATA_PERMISSION.admin;

  const link = (key: string, icon: ReactNode, path: string, write = false) => {
    const page = permitted(path);
    const allowed = page && (!write || canWrite);
    const reason = page
      ? t('actions.needWrite', '需要此设备的读写权限')
      : t('actions.noPage', '您没有打开此页面的权限');
    return (
      <Tooltip key={key} title={allowed ? null : reason}>
        <Button
          icon={icon}
          disabled={!allowed}
          onClick={() => navigate(path)}
          data-testid={`drawer-link-${key}`}
        >
          {t(`actions.${key}`, key)}
        </Button>
      </Tooltip>
    );
  };

  const body = () => {
    if (detail.isLoading) return <Skeleton active />;
    if (!device)
      return (
        <Result
          status="404"
          title={t('detail.gone', '设备不存在或您无权查看')}
          extra={<Button onClick={onClose}>{t('common.close', '关闭')}</Button>}
        />
      );
    return (
      <Flex vertical gap={20} data-testid="device-drawer-body">
        <Flex gap={16} align="center" wrap>
          <DevicePictureView picture={device.picture} size={88} />
          <Space orientation="vertical" size={4}>
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="drawer-name">
              {device.name}
            </Typography.Title>
            <Typography.Text copyable className="dv-mono">
              {device.serialNumber}
            </Typography.Text>
            <Space size={8} wrap>
              <StatusTag device={device} />
              <OnlineCell device={device} compact />
            </Space>
          </Space>
        </Flex>
        <Flex gap={8} wrap>
          <Tooltip title={canWrite ? null : t('actions.needWrite', '需要此设备的读写权限')}>
            <Button
              type="primary"
              icon={<EditOutlined />}
              disabled={!canWrite}
              onClick={() => onEdit(device)}
              data-testid="drawer-edit"
            >
              {t('actions.edit', '编辑')}
            </Button>
          </Tooltip>
          <Tooltip title={canAdmin ? null : t('actions.needAdmin', '需要此设备的管理员权限')}>
            <Button
              danger
              icon={<DisconnectOutlined />}
              disabled={!canAdmin}
              onClick={() => unbind(device, onClose)}
              data-testid="drawer-unbind"
            >
              {t('actions.unbind', '解绑')}
            </Button>
          </Tooltip>
        </Flex>
        <Descriptions
          size="small"
          column={screens.md ? 2 : 1}
          bordered
          data-testid="device-fields"
          items={[
            { key: 'sn', label: t('fields.serialNumber', '序列号 (SN)'), children: device.serialNumber },
            { key: 'name', label: t('fields.name', '设备名称'), children: device.name },
            { key: 'model', label: t('fields.model', '型号'), children: device.model || '—' },
            { key: 'firmware', label: t('fields.firmware', '固件版本'), children: device.firmware ?? '—' },
            {
              key: 'address',
              label: t('fields.address', '安装地址'),
              children: device.address || '—',
              span: screens.md ? 2 : 1,
            },
            { key: 'onlineAt', label: t('fields.onlineAt', '上线时间'), children: time(device.onlineAt) },
            { key: 'offlineAt', label: t('fields.offlineAt', '离线时间'), children: time(device.offlineAt) },
            {
              key: 'lastSeenAt',
              label: t('fields.lastSeenAt', '最近通信'),
              children: time(device.lastSeenAt),
            },
            {
              key: 'firstBoundAt',
              label: t('fields.firstBoundAt', '首次绑定时间'),
              children: time(device.firstBoundAt),
            },
            { key: 'boundAt', label: t('fields.boundAt', '本次绑定时间'), children: time(device.boundAt) },
            { key: 'updatedAt', label: t('fields.updatedAt', '更新时间'), children: time(device.updatedAt) },
            {
              key: 'iccid',
              label: t('fields.iccid', 'SIM 卡 ICCID'),
              children: device.iccid ? <span className="dv-mono">{device.iccid}</span> : '—',
            },
            {
              key: 'config',
              label: t('fields.config', '运行配置'),
              children:
                device.configVersion != null ? (
                  <Tooltip title={device.configHash}>
                    <span data-testid="device-config-version">
                      {t('fields.configVersion', '版本 {{v}}', { v: device.configVersion })}
                      {device.configHash ? (
                        <span className="dv-mono dv-small"> · {device.configHash.slice(0, 12)}</span>
                      ) : null}
                    </span>
                  </Tooltip>
                ) : (
                  '—'
                ),
            },
            {
              key: 'path',
              label: t('fields.path', '数据舱位置'),
              span: screens.md ? 2 : 1,
              children: (
                <span data-testid="device-path">
                  {[t('detail.cabin', '数据舱'), ...device.path, device.name].join(' / ')}
                </span>
              ),
            },
          ]}
        />
        <section>
          <Typography.Title level={5}>{t('detail.ports', '端口状态')}</Typography.Title>
          <Ports device={device} />
        </section>
        <section>
          <Typography.Title level={5}>{t('detail.telemetry', 'JSON 数据上报')}</Typography.Title>
          <Telemetry device={device} />
        </section>
        <section>
          <Typography.Title level={5}>{t('fields.picture', '设备图片')}</Typography.Title>
          {canWrite ? (
            <PicturePicker device={device} />
          ) : (
            <Typography.Text type="secondary">
              {t('actions.needWrite', '需要此设备的读写权限')}
            </Typography.Text>
          )}
        </section>
        <section>
          <Typography.Title level={5}>{t('detail.more', '更多')}</Typography.Title>
          <Flex gap={8} wrap>
            {link('log', <FileSearchOutlined />, devicePaths.operationLog(device))}
            {link('config', <SettingOutlined />, devicePaths.config(device))}
            {link('configPush', <CloudUploadOutlined />, devicePaths.configPush(device))}
            {link('chart', <BarChartOutlined />, devicePaths.chart(device))}
            {link('flow', <NodeIndexOutlined />, devicePaths.dataFlow(device))}
            {link('screen', <DesktopOutlined />, devicePaths.screen(device))}
            {link('screenEdit', <FormOutlined />, devicePaths.screenEdit(device), true)}
            {link('flowChart', <PartitionOutlined />, devicePaths.flowChart(device))}
            {link('firmware', <ApiOutlined />, devicePaths.firmware(device))}
            {link('maintenance', <ToolOutlined />, devicePaths.maintenance)}
          </Flex>
        </section>
      </Flex>
    );
  };

  return (
    <Drawer
      open={deviceId != null}
      onClose={onClose}
      title={device?.name ?? t('detail.title', '设备详情')}
      size={screens.md ? 720 : '100%'}
      destroyOnHidden
      data-testid="device-drawer"
      data-list={listPath}
    >
      {deviceId != null ? body() : <Empty />}
    </Drawer>
  );
}
