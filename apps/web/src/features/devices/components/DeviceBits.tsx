/** Small pieces every device view shows: the picture, online state and status. */
import type { GatewayStatus, PortHealth } from '@platform/domain';
import { Badge, Image, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMinute } from '../../../shared/time';
import { type DevicePicture, type DeviceRow, useDevice } from '../api';
import { PresetIcon } from './PresetIcon';

export const STATUS_COLORS: Record<GatewayStatus, string> = {
  inactive: 'default',
  running: 'success',
  abnormal: 'error',
};

/** The device's photo (its thumbnail, the full picture on click) or its preset drawing. */
export function DevicePictureView({
  picture,
  size = 40,
  preview = true,
}: {
  picture: DevicePicture;
  size?: number;
  preview?: boolean;
}) {
  if ('preset' in picture)
    return (
      <span className="dv-picture" style={{ width: size, height: size }} data-testid="device-picture">
        <PresetIcon preset={picture.preset} size={Math.round(size * 0.86)} />
      </span>
    );
  return (
    <span className="dv-picture" style={{ width: size, height: size }} data-testid="device-picture">
      <Image
        src={picture.thumbnailUrl}
        width={size}
        height={size}
        style={{ objectFit: 'cover', borderRadius: 6 }}
        preview={preview ? { src: picture.url } : false}
        alt=""
      />
    </span>
  );
}

/** Online or offline, with the time it came online or went offline. */
export function OnlineCell({ device, compact = false }: { device: DeviceRow; compact?: boolean }) {
  const { t } = useTranslation('devices');
  const at = device.online ? device.onlineAt : device.offlineAt;
  return (
    <Space
      orientation={compact ? 'horizontal' : 'vertical'}
      size={compact ? 6 : 0}
      wrap
      data-testid="device-online"
    >
      <Badge
        status={device.online ? 'success' : 'default'}
        text={device.online ? t('online.on', '在线') : t('online.off', '离线')}
        data-online={device.online ? 'true' : 'false'}
      />
      {at ? (
        <Typography.Text type="secondary" className="dv-small">
          {device.online
            ? t('online.since', '{{time}} 上线', { time: formatMinute(at) })
            : t('online.offSince', '{{time}} 离线', { time: formatMinute(at) })}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

/** Port errors as text lines: "COM2: no answer". */
export function portErrors(
  ports: readonly PortHealth[] | undefined,
  portLabel: (n: number) => string,
): string[] {
  return (ports ?? []).filter((p) => !p.ok).map((p) => `${portLabel(p.port)}: ${p.error ?? '—'}`);
}

function AbnormalReason({ device }: { device: DeviceRow }) {
  const { t } = useTranslation('devices');
  // the list rows carry no ports: an online abnormal device's port errors come from its detail
  const detail = useDevice(device.online && !device.ports ? device.id : null);
  if (!device.online)
    return (
      <span>
        {t('status.stopped', '设备已停止运行：{{time}} 离线', {
          time: device.offlineAt ? formatMinute(device.offlineAt) : '—',
        })}
      </span>
    );
  const errors = portErrors(device.ports ?? detail.data?.ports, (n) => t('ports.port', '端口 {{n}}', { n }));
  if (errors.length === 0) return <span>{detail.isLoading ? '…' : t('status.abnormal', '异常')}</span>;
  return (
    <span data-testid="status-port-errors">
      {errors.map((line) => (
        <div key={line}>{line}</div>
      ))}
    </span>
  );
}

/** The status as a coloured tag; an abnormal one says why on hover (the port error, or offline). */
export function StatusTag({ device }: { device: DeviceRow }) {
  const { t } = useTranslation('devices');
  const tag = (
    <Tag color={STATUS_COLORS[device.status]} data-testid="device-status" data-status={device.status}>
      {t(`status.${device.status}`, device.status)}
    </Tag>
  );
  if (device.status !== 'abnormal') return tag;
  return (
    <Tooltip title={<AbnormalReason device={device} />} destroyOnHidden>
      {tag}
    </Tooltip>
  );
}
