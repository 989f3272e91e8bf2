import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/http/client';
import { type BatchResult, firmwareApi, isLive, type Upgrade, useBatch } from '../api';
import { useUpgradeLive } from '../live';
import { STATE_COLOR } from '../states';
import '../firmware.css';

export interface BatchDevice {
  id: number;
  name: string;
  serialNumber: string;
  model: string;
  firmware: string | null;
}

interface Row {
  device: BatchDevice;
  upgrade: Upgrade | null;
  refusal: string | null;
}

/**
 * Upgrading several gateways at once (from the device list): one version for them, then each
 * gateway's state live. The platform dispatches only so many at once; the rest show queued and
 * start in turn. A gateway that cannot start (offline, not bound, no permission, another model)
 * shows why, and the others go ahead.
 */
export function BatchUpgradeModal({
  devices,
  onClose,
}: {
  devices: BatchDevice[] | null;
  onClose: () => void;
}) {
  return devices ? <BatchUpgradeDialog devices={devices} onClose={onClose} /> : null;
}

function BatchUpgradeDialog({ devices, onClose }: { devices: BatchDevice[]; onClose: () => void }) {
  const { t } = useTranslation('firmware');
  const first = devices[0];
  const [versionId, setVersionId] = useState<number | null>(null);
  const [started, setStarted] = useState<BatchResult | null>(null);
  const [starting, setStarting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const offered = useQuery({
    queryKey: ['firmware', 'batchVersions', first?.id ?? 0],
    queryFn: () => firmwareApi.versionsFor(first!.id),
    enabled: first != null,
    retry: false,
  });
  const batch = useBatch(started?.batchId ?? null, 2000);
  useUpgradeLive();
  const model = offered.data?.device.model ?? first?.model ?? '';
  const mixed = devices.some((d) => d.model !== model);
  const versions = offered.data?.versions ?? [];

  const byId = new Map((batch.data?.list ?? []).map((u) => [u.deviceId, u]));
  const rows: Row[] = devices.map((device) => {
    const result = started?.results.find((r) => r.id === device.id);
    return {
      device,
      upgrade: byId.get(device.id) ?? result?.upgrade ?? null,
      refusal: result?.error?.message ?? null,
    };
  });
  const upgrades = rows.flatMap((r) => (r.upgrade ? [r.upgrade] : []));
  const count = (test: (u: Upgrade) => boolean) => upgrades.filter(test).length;

  const start = async () => {
    if (versionId == null) return;
    setStarting(true);
    setFailure(null);
    try {
      setStarted(
        (
          await firmwareApi.batch(
            devices.map((d) => d.id),
            versionId,
          )
        ).data,
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setFailure(error.message);
    } finally {
      setStarting(false);
    }
  };

  return (
    <Modal
      open
      width={760}
      title={t('batch.title')}
      onCancel={onClose}
      destroyOnHidden
      footer={
        started ? (
          <Button onClick={onClose}>{t('batch.close')}</Button>
        ) : (
          <Space>
            <Button onClick={onClose}>{t('batch.close')}</Button>
            <Button
              type="primary"
              disabled={versionId == null}
              loading={starting}
              onClick={() => void start()}
              data-testid="fw-batch-start"
            >
              {t('batch.start')}
            </Button>
          </Space>
        )
      }
    >
      <Space orientation="vertical" size={12} className="fw-page" data-testid="fw-batch">
        <Typography.Text>{t('batch.selected', { n: devices.length })}</Typography.Text>
        {!started ? (
          <Space wrap>
            <span>{t('batch.version')}</span>
            <Select<number>
              style={{ minWidth: 220 }}
              loading={offered.isLoading}
              placeholder={t('batch.versionPlaceholder')}
              value={versionId ?? undefined}
              onChange={setVersionId}
              notFoundContent={t('batch.noVersions', { model })}
              options={versions.map((v) => ({ value: v.id, label: `${v.model} ${v.version}` }))}
              data-testid="fw-batch-version"
            />
          </Space>
        ) : null}
        {mixed ? <Alert type="warning" showIcon title={t('batch.models', { model })} /> : null}
        <Alert type="info" showIcon title={t('batch.throttle')} />
        {failure ? <Alert type="error" showIcon title={failure} /> : null}
        {started ? (
          <Typography.Text strong className="fw-batch-counts" data-testid="fw-batch-counts">
            {t('batch.counts', {
              success: count((u) => u.state === 'success'),
              failed: count((u) => u.state === 'failed'),
              live: count((u) => isLive(u) && u.state !== 'queued'),
              queued: count((u) => u.state === 'queued'),
            })}
          </Typography.Text>
        ) : null}
        <Table<Row>
          rowKey={(row) => row.device.id}
          size="small"
          pagination={false}
          dataSource={rows}
          scroll={{ y: 320 }}
          onRow={(row) => ({ 'data-testid': `fw-batch-row-${row.device.serialNumber}` }) as never}
          columns={[
            {
              title: t('batch.device'),
              key: 'device',
              render: (_, row) => (
                <Space orientation="vertical" size={0}>
                  <span>{row.device.name}</span>
                  <Typography.Text type="secondary" className="fw-mono fw-small">
                    {row.device.serialNumber} · {row.device.model} · {row.device.firmware ?? '?'}
                  </Typography.Text>
                </Space>
              ),
            },
            {
              title: t('batch.state'),
              key: 'state',
              width: 300,
              render: (_, row) =>
                row.upgrade ? (
                  <Space orientation="vertical" size={0}>
                    <Tag
                      color={STATE_COLOR[row.upgrade.state]}
                      data-testid="fw-batch-state"
                      data-state={row.upgrade.state}
                    >
                      {t(`states.${row.upgrade.state}`)}
                      {isLive(row.upgrade) && row.upgrade.progress != null ? ` ${row.upgrade.progress}%` : ''}
                    </Tag>
                    {row.upgrade.reason ? (
                      <Typography.Text type="danger" className="fw-small">
                        {t(`reasons.${row.upgrade.reason}`)}
                      </Typography.Text>
                    ) : null}
                  </Space>
                ) : row.refusal ? (
                  <Space orientation="vertical" size={0}>
                    <Tag data-testid="fw-batch-state" data-state="refused">
                      {t('batch.refused')}
                    </Tag>
                    <Typography.Text type="danger" className="fw-small" data-testid="fw-batch-refusal">
                      {row.refusal}
                    </Typography.Text>
                  </Space>
                ) : (
                  '—'
                ),
            },
          ]}
        />
      </Space>
    </Modal>
  );
}
