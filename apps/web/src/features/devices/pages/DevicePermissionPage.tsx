/**
 * Device permissions (/devicemanagement/devicemanagementpermission, dm_permission): the
 * devices the person can read, with their permission settings where the person administers
 * them. A device's permissions are the data cabin's on the device's node, edited with the
 * cabin's own form (inherit from the directory, or custom for the company, groups, persons).
 */
import { SafetyOutlined } from '@ant-design/icons';
import { DATA_PERMISSION, type PermissionEntry } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Grid, Input, Modal, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { usePaging } from '../../../shared/paging';
import { PermissionForm } from '../../datacabin/components/PermissionEditor';
import { deviceApi, deviceKeys, type PermissionRow, useDevicePermissions } from '../api';
import { devicePaths, useDeviceListPath } from '../paths';
import '../devices.css';

const LEVEL_COLORS = ['default', 'blue', 'green', 'gold'];

function Summary({ row }: { row: PermissionRow }) {
  const { t } = useTranslation('devices');
  const { t: tc } = useTranslation('datacabin');
  if (row.mode === null || row.entries === null)
    return (
      <Tooltip title={t('perm.hiddenHint', '只有设备的管理员能看到它的权限设置')}>
        <Typography.Text type="secondary">—</Typography.Text>
      </Tooltip>
    );
  if (row.mode === 'inherit')
    return <Tag data-testid="perm-mode-tag">{t('perm.inherit', '继承上级目录')}</Tag>;
  const company = row.entries.find((e) => e.scope === 'company');
  const groups = row.entries.filter((e) => e.scope === 'group').length;
  const users = row.entries.filter((e) => e.scope === 'user').length;
  return (
    <Space size={4} wrap>
      <Tag color="purple" data-testid="perm-mode-tag">
        {t('perm.custom', '自定义')}
      </Tag>
      {company ? (
        <Typography.Text className="dv-small">
          {t('perm.companyLevel', '全公司：{{level}}', { level: tc(`level.${company.level}`) })}
        </Typography.Text>
      ) : null}
      {groups ? (
        <Typography.Text className="dv-small">
          {t('perm.groupCount', '{{n}} 个用户组', { n: groups })}
        </Typography.Text>
      ) : null}
      {users ? (
        <Typography.Text className="dv-small">
          {t('perm.userCount', '{{n}} 人', { n: users })}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

export default function DevicePermissionPage() {
  const { t } = useTranslation('devices');
  const { t: tc } = useTranslation('datacabin');
  const { message } = App.useApp();
  const client = useQueryClient();
  const navigate = useNavigate();
  const listPath = useDeviceListPath();
  const { paging, pagination, reset } = usePaging();
  const [keyword, setKeyword] = useState('');
  const rows = useDevicePermissions(keyword, paging);
  const [editing, setEditing] = useState<PermissionRow | null>(null);
  const wide = Grid.useBreakpoint().md === true;

  const save = async (mode: 'inherit' | 'custom', entries: PermissionEntry[]) => {
    if (!editing) return;
    try {
      const envelope = await deviceApi.setPermission({ id: editing.id, mode, entries });
      message.success(envelope.message);
      void client.invalidateQueries({ queryKey: deviceKeys.all });
      setEditing(null);
    } catch {
      // the http client showed why
    }
  };

  const columns: ColumnsType<PermissionRow> = [
    {
      title: t('fields.name', '设备名称'),
      dataIndex: 'name',
      render: (name: string, row) => (
        <Space orientation="vertical" size={0}>
          {listPath ? (
            <Typography.Link onClick={() => navigate(devicePaths.detail(listPath, row.id))}>
              {name}
            </Typography.Link>
          ) : (
            name
          )}
          {wide ? null : (
            <>
              <Typography.Text type="secondary" className="dv-mono dv-small">
                {row.serialNumber}
              </Typography.Text>
              <Summary row={row} />
            </>
          )}
        </Space>
      ),
    },
    {
      title: t('fields.serialNumber', '序列号 (SN)'),
      dataIndex: 'serialNumber',
      width: 180,
      responsive: ['md'],
      render: (sn: string) => <span className="dv-mono">{sn}</span>,
    },
    {
      title: t('perm.myLevel', '我的权限'),
      dataIndex: 'level',
      width: 120,
      responsive: ['md'],
      render: (level: number) => <Tag color={LEVEL_COLORS[level]}>{tc(`level.${level}`, String(level))}</Tag>,
    },
    {
      title: t('perm.settings', '权限设置'),
      key: 'settings',
      responsive: ['md'],
      render: (_, row) => <Summary row={row} />,
    },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: wide ? 140 : 56,
      fixed: wide ? 'right' : undefined,
      render: (_, row) => {
        const admin = row.level >= DATA_PERMISSION.admin;
        return (
          <Tooltip title={admin ? null : t('actions.needAdmin', '需要此设备的管理员权限')}>
            <Button
              type="link"
              size="small"
              icon={<SafetyOutlined />}
              disabled={!admin}
              onClick={() => setEditing(row)}
              aria-label={t('perm.edit', '设置权限')}
              data-testid={`perm-edit-${row.serialNumber}`}
            >
              {wide ? t('perm.edit', '设置权限') : null}
            </Button>
          </Tooltip>
        );
      },
    },
  ];

  return (
    <Card variant="borderless" title={t('perm.title', '设备权限')} data-testid="device-permission-page">
      <Typography.Paragraph type="secondary">
        {t(
          'perm.intro',
          '设备的权限就是它在数据舱中节点的权限：只读可查看设备和数据，读写可编辑、下发配置和升级固件，管理员可解绑并设置权限。',
        )}
      </Typography.Paragraph>
      <div className="dv-toolbar">
        <Input.Search
          className="dv-search"
          allowClear
          placeholder={t('perm.search', '搜索序列号或名称')}
          onSearch={(value) => {
            setKeyword(value.trim());
            reset();
          }}
          data-testid="perm-search"
        />
      </div>
      <Table<PermissionRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows.data?.list ?? []}
        loading={rows.isFetching && !rows.data}
        pagination={pagination(rows.data)}
        scroll={wide ? { x: 760 } : undefined}
        onRow={(row) => ({ 'data-testid': `perm-row-${row.serialNumber}` }) as never}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                keyword ? t('list.noMatch', '没有符合条件的设备') : t('perm.empty', '还没有您可查看的设备')
              }
            />
          ),
        }}
      />
      <Modal
        open={editing != null}
        title={t('perm.modalTitle', '设备权限：{{name}}', { name: editing?.name ?? '' })}
        footer={null}
        onCancel={() => setEditing(null)}
        destroyOnHidden
        width={640}
      >
        {editing?.mode && editing.entries ? (
          <PermissionForm mode={editing.mode} entries={editing.entries} editable onSave={save} />
        ) : null}
      </Modal>
    </Card>
  );
}
