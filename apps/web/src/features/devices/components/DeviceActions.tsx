/**
 * What a person may do with a device, by their level on it (docs/devices.md, "Permissions"):
 * read (1) opens the detail, the operation log, the charts and the configuration; read-write
 * (2) edits; administrator (3) unbinds. A too low level leaves the action disabled with the
 * reason on hover; a page the person's menu codes do not reach is disabled the same way.
 */
import {
  BarChartOutlined,
  CodeOutlined,
  DesktopOutlined,
  DisconnectOutlined,
  EditOutlined,
  EyeOutlined,
  FileSearchOutlined,
  FormOutlined,
  MoreOutlined,
  NodeIndexOutlined,
  PartitionOutlined,
  PoweroffOutlined,
  SettingOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { DATA_PERMISSION } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Dropdown, type MenuProps, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { type DeviceRow, deviceApi, deviceKeys } from '../api';
import { devicePaths, usePermittedPath } from '../paths';

type LinkKey = 'log' | 'config' | 'chart' | 'flow' | 'screen' | 'screenEdit' | 'flowChart' | 'comdebug';

const LINKS: Array<{ key: LinkKey; icon: ReactNode; path: (d: DeviceRow) => string; write?: boolean }> = [
  { key: 'log', icon: <FileSearchOutlined />, path: devicePaths.operationLog },
  { key: 'config', icon: <SettingOutlined />, path: devicePaths.config },
  { key: 'chart', icon: <BarChartOutlined />, path: devicePaths.chart },
  { key: 'flow', icon: <NodeIndexOutlined />, path: devicePaths.dataFlow },
  { key: 'screen', icon: <DesktopOutlined />, path: devicePaths.screen },
  { key: 'screenEdit', icon: <FormOutlined />, path: devicePaths.screenEdit, write: true },
  { key: 'flowChart', icon: <PartitionOutlined />, path: devicePaths.flowChart },
  { key: 'comdebug', icon: <CodeOutlined />, path: devicePaths.comDebug },
];

/**
 * Reboot (after a confirmation) and read now: commands to a bound online gateway, each in the
 * operation log with its result (a reboot's when the gateway is back).
 */
export function useDeviceCommand(): (device: DeviceRow, command: 'reboot' | 'readNow') => Promise<void> {
  const { t } = useTranslation('devices');
  const { modal, message } = App.useApp();
  const run = async (device: DeviceRow, command: 'reboot' | 'readNow') => {
    try {
      const envelope = await deviceApi.command(device.id, command);
      message.success(
        command === 'reboot'
          ? t('command.rebootSent', '重启指令已发送，网关重新上线后操作日志会记录结果')
          : envelope.message,
      );
    } catch {
      // the http client showed why
    }
  };
  return async (device, command) => {
    if (command === 'readNow') return run(device, command);
    await new Promise<void>((resolve) => {
      modal.confirm({
        title: t('command.rebootTitle', '重启网关“{{name}}”（{{sn}}）？', {
          name: device.name,
          sn: device.serialNumber,
        }),
        content: t('command.rebootContent', '网关会断开连接并重新启动，期间停止采集，串口调试会话也会结束。'),
        okText: t('command.reboot', '重启'),
        okButtonProps: { danger: true, 'data-testid': 'reboot-ok' } as never,
        cancelText: t('common.cancel', '取消'),
        onOk: async () => {
          await run(device, 'reboot');
          resolve();
        },
        onCancel: () => resolve(),
      });
    });
  };
}

/**
 * Unbinding after a prompt that names the device; resolves true once unbound. `leave` runs
 * first on success (the drawer closes), so that nothing asks for the gone device's detail.
 */
export function useUnbind(): (device: DeviceRow, leave?: () => void) => Promise<boolean> {
  const { t } = useTranslation('devices');
  const { modal, message } = App.useApp();
  const client = useQueryClient();
  return (device, leave) =>
    new Promise<boolean>((resolve) => {
      modal.confirm({
        title: t('unbind.title', '解绑设备“{{name}}”（{{sn}}）？', {
          name: device.name,
          sn: device.serialNumber,
        }),
        content: t(
          'unbind.content',
          '设备将从数据舱中移除，网关会收到解绑通知。它的操作日志和维护记录仍留在本公司，重新绑定后可再看到。',
        ),
        okText: t('unbind.ok', '解绑'),
        okButtonProps: { danger: true, 'data-testid': 'unbind-ok' } as never,
        cancelText: t('common.cancel', '取消'),
        onOk: async () => {
          try {
            const envelope = await deviceApi.unbind(device.id);
            message.success(envelope.message);
            leave?.();
            client.removeQueries({ queryKey: deviceKeys.detail(device.id) });
            void client.invalidateQueries({
              queryKey: deviceKeys.all,
              predicate: (query) => query.queryKey[1] !== 'detail',
            });
            resolve(true);
          } catch {
            // the http client showed why
            resolve(false);
          }
        },
        onCancel: () => resolve(false),
      });
    });
}

export function DeviceActions({
  device,
  onDetail,
  onEdit,
  onUnbound,
  compact = false,
}: {
  device: DeviceRow;
  onDetail?: (device: DeviceRow) => void;
  onEdit: (device: DeviceRow) => void;
  onUnbound?: (device: DeviceRow) => void;
  /** icons only (cards on a phone) */
  compact?: boolean;
}) {
  const { t } = useTranslation('devices');
  const navigate = useNavigate();
  const permitted = usePermittedPath();
  const unbind = useUnbind();
  const canWrite = device.level >= DATA_PERMISSION.write;
  const canAdmin = device.level >= DATA_PERMISSION.admin;

  const linkItems: NonNullable<MenuProps['items']> = LINKS.map((link) => {
    const path = link.path(device);
    const page = permitted(path);
    const allowed = page && (!link.write || canWrite);
    return {
      key: link.key,
      icon: link.icon,
      disabled: !allowed,
      'data-testid': `device-action-${link.key}`,
      label: allowed ? (
        t(`actions.${link.key}`, link.key)
      ) : (
        <Tooltip
          title={
            page
              ? t('actions.needWrite', '需要此设备的读写权限')
              : t('actions.noPage', '您没有打开此页面的权限')
          }
          placement="left"
        >
          {t(`actions.${link.key}`, link.key)}
        </Tooltip>
      ),
      onClick: () => navigate(path),
    };
  });
  const command = useDeviceCommand();
  const commandReason = !canWrite
    ? t('actions.needWrite', '需要此设备的读写权限')
    : !device.online
      ? t('command.offline', '网关离线，无法接收指令')
      : null;
  const commandItems: NonNullable<MenuProps['items']> = (
    [
      ['readNow', <SyncOutlined key="i" />],
      ['reboot', <PoweroffOutlined key="i" />],
    ] as const
  ).map(([key, icon]) => ({
    key,
    icon,
    disabled: commandReason !== null,
    'data-testid': `device-action-${key}`,
    label: commandReason ? (
      <Tooltip title={commandReason} placement="left">
        {t(`command.${key}`, key)}
      </Tooltip>
    ) : (
      t(`command.${key}`, key)
    ),
    onClick: () => void command(device, key),
  }));
  const items: NonNullable<MenuProps['items']> = [
    ...linkItems,
    { type: 'divider' },
    ...commandItems,
    { type: 'divider' },
    {
      key: 'unbind',
      icon: <DisconnectOutlined />,
      danger: canAdmin,
      disabled: !canAdmin,
      'data-testid': 'device-action-unbind',
      label: canAdmin ? (
        t('actions.unbind', '解绑')
      ) : (
        <Tooltip title={t('actions.needAdmin', '需要此设备的管理员权限')} placement="left">
          <span data-testid="device-unbind-reason">{t('actions.unbind', '解绑')}</span>
        </Tooltip>
      ),
      onClick: async () => {
        if (await unbind(device)) onUnbound?.(device);
      },
    },
  ];

  return (
    <Space size={0} wrap={false}>
      {onDetail ? (
        <Button
          type="link"
          size="small"
          icon={<EyeOutlined />}
          onClick={() => onDetail(device)}
          data-testid={`device-detail-${device.serialNumber}`}
          aria-label={t('actions.detail', '详情')}
        >
          {compact ? null : t('actions.detail', '详情')}
        </Button>
      ) : null}
      <Tooltip title={canWrite ? null : t('actions.needWrite', '需要此设备的读写权限')}>
        <Button
          type="link"
          size="small"
          icon={<EditOutlined />}
          disabled={!canWrite}
          onClick={() => onEdit(device)}
          data-testid={`device-edit-${device.serialNumber}`}
          aria-label={t('actions.edit', '编辑')}
        >
          {compact ? null : t('actions.edit', '编辑')}
        </Button>
      </Tooltip>
      {/* the three dots say "more" in every language, and leave the column room */}
      <Dropdown menu={{ items }} trigger={['click']}>
        <Button
          type="link"
          size="small"
          icon={<MoreOutlined />}
          title={t('actions.more', '更多')}
          data-testid={`device-more-${device.serialNumber}`}
          aria-label={t('actions.more', '更多')}
        />
      </Dropdown>
    </Space>
  );
}
