import { Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceHead } from '../api';

/** The device a view shows: its name and serial number, online or offline, the configuration it runs. */
export function DeviceHeader({
  title,
  device,
  online,
  version,
  extra,
}: {
  title: string;
  device: DeviceHead;
  online: boolean;
  version: number | null;
  extra?: ReactNode;
}) {
  const { t } = useTranslation('deviceviews');
  return (
    <div className="dv-header">
      <div className="dv-title">
        <Typography.Title level={4} className="dv-title-text">
          {title} · {device.name}
        </Typography.Title>
        <Space size={[4, 4]} wrap>
          <Typography.Text type="secondary" copyable>
            {device.serialNumber}
          </Typography.Text>
          <Tag color={online ? 'success' : 'default'} data-testid="dv-online">
            {online ? t('common.online') : t('common.offline')}
          </Tag>
          <Tag color={version != null ? 'blue' : 'default'}>
            {version != null ? t('common.version', { version }) : t('common.noVersion')}
          </Tag>
        </Space>
      </div>
      {extra && <div className="dv-actions">{extra}</div>}
    </div>
  );
}
