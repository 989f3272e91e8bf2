import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { checkIp, type DataSource } from '@platform/domain';
import { App, Button, Input, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cabinApi, type DataItem } from '../api';
import { errorText } from '../cabin';

interface Row extends DataSource {
  rid: string;
}

let seq = 0;

/** Devices that feed the item (device keys may write only to items naming their device). */
export function SourcesTab({
  item,
  editable,
  onSaved,
}: {
  item: DataItem;
  editable: boolean;
  onSaved: (item: DataItem) => void;
}) {
  const { t } = useTranslation('datacabin');
  const { message } = App.useApp();
  const [rows, setRows] = useState<Row[]>([]);
  const [bad, setBad] = useState<{ index: number; field: 'deviceId' | 'ip' } | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    setRows(item.sources.map((s) => ({ ...s, rid: `s${++seq}` })));
    setBad(null);
  }, [item]);

  const patch = (index: number, change: Partial<Row>) => {
    setRows((list) => list.map((r, i) => (i === index ? { ...r, ...change } : r)));
    setBad(null);
  };

  const save = async () => {
    for (const [index, row] of rows.entries()) {
      if (row.deviceId.trim() === '') {
        setBad({ index, field: 'deviceId' });
        message.error(t('sources.deviceIdRequired', '请输入设备ID'));
        return;
      }
      const ip = row.ip?.trim() ?? '';
      if (ip !== '' && checkIp(ip)) {
        setBad({ index, field: 'ip' });
        message.error(errorText('ipInvalid'));
        return;
      }
    }
    setSaving(true);
    try {
      const sources: DataSource[] = rows.map((r) => ({
        deviceId: r.deviceId.trim(),
        deviceName: r.deviceName.trim(),
        ...(r.ip?.trim() ? { ip: r.ip.trim() } : {}),
      }));
      const envelope = await cabinApi.updateItem({ itemId: item.id, sources });
      message.success(envelope.message);
      onSaved(envelope.data);
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  const columns: ColumnsType<Row> = [
    {
      title: t('sources.deviceId', '设备ID'),
      key: 'deviceId',
      render: (_, row, index) => (
        <Input
          value={row.deviceId}
          maxLength={64}
          disabled={!editable}
          status={bad?.index === index && bad.field === 'deviceId' ? 'error' : undefined}
          onChange={(e) => patch(index, { deviceId: e.target.value })}
          data-testid={`source-id-${index}`}
        />
      ),
    },
    {
      title: t('sources.deviceName', '设备名称'),
      key: 'deviceName',
      render: (_, row, index) => (
        <Input
          value={row.deviceName}
          maxLength={64}
          disabled={!editable}
          onChange={(e) => patch(index, { deviceName: e.target.value })}
          data-testid={`source-name-${index}`}
        />
      ),
    },
    {
      title: t('sources.ip', 'IP 地址'),
      key: 'ip',
      render: (_, row, index) => (
        <Input
          value={row.ip ?? ''}
          maxLength={39}
          disabled={!editable}
          placeholder="192.168.1.10"
          status={bad?.index === index && bad.field === 'ip' ? 'error' : undefined}
          onChange={(e) => patch(index, { ip: e.target.value })}
          data-testid={`source-ip-${index}`}
        />
      ),
    },
    {
      title: '',
      key: 'remove',
      width: 50,
      render: (_, __, index) => (
        <Button
          type="text"
          danger
          icon={<DeleteOutlined />}
          disabled={!editable}
          aria-label={t('common.delete', '删除')}
          onClick={() => setRows((list) => list.filter((_r, i) => i !== index))}
        />
      ),
    },
  ];

  return (
    <div data-testid="sources-tab">
      <div className="dc-tab-actions">
        <Button
          icon={<PlusOutlined />}
          disabled={!editable}
          onClick={() => setRows((list) => [...list, { rid: `s${++seq}`, deviceId: '', deviceName: '' }])}
          data-testid="source-add"
        >
          {t('sources.add', '添加数据来源')}
        </Button>
        <Button
          type="primary"
          loading={saving}
          disabled={!editable}
          onClick={save}
          data-testid="sources-save"
        >
          {t('common.save', '保存')}
        </Button>
      </div>
      <Table<Row>
        rowKey="rid"
        size="small"
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 640 }}
        locale={{ emptyText: t('sources.empty', '还没有数据来源') }}
      />
      <Typography.Paragraph type="secondary" className="dc-gap-top">
        {t(
          'sources.hint',
          'IP 地址可留空；填写时须为有效的 IPv4 或完整的 IPv6 地址。设备密钥只能向列出其设备ID的数据项提交数据。',
        )}
      </Typography.Paragraph>
    </div>
  );
}
