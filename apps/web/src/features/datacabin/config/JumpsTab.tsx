import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Popconfirm, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cabinApi, type DataItem, type Jump, useJumps } from '../api';
import { JumpEditor } from './JumpEditor';

/** Jump associations of the item, highest priority first. */
export function JumpsTab({ item, editable }: { item: DataItem; editable: boolean }) {
  const { t } = useTranslation('datacabin');
  const { message } = App.useApp();
  const jumps = useJumps(item.id);
  const [editing, setEditing] = useState<{ jump: Jump | null } | null>(null);
  const list = [...(jumps.data ?? [])].sort((a, b) => b.priority - a.priority);

  const remove = async (jump: Jump) => {
    try {
      const envelope = await cabinApi.deleteJump(item.id, jump.id);
      message.success(envelope.message);
      await jumps.refetch();
    } catch {
      // the http client showed the error
    }
  };

  const columns: ColumnsType<Jump> = [
    { title: t('jumps.priority', '优先级'), dataIndex: 'priority', width: 90 },
    { title: t('jumps.name', '筛选名称'), dataIndex: 'name' },
    {
      title: t('jumps.conditions', '转发条件（全部满足）'),
      key: 'conditions',
      render: (_, jump) =>
        jump.conditions.length === 0
          ? t('jumps.always', '每条记录')
          : jump.conditions
              .map((c) => {
                const field = item.fields.find((f) => f.key === c.field)?.name ?? c.field;
                return `${field} ${t(`op.${c.op}`, c.op)} ${c.value ?? ''}`.trim();
              })
              .join('；'),
    },
    { title: t('jumps.target', '目标数据项'), dataIndex: 'targetName' },
    {
      title: t('jumps.enabled', '启用'),
      dataIndex: 'enabled',
      width: 80,
      render: (on: boolean) => (
        <Tag color={on ? 'green' : 'default'}>{on ? t('common.on', '是') : t('common.off', '否')}</Tag>
      ),
    },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: 110,
      render: (_, jump) => (
        <Space size={0}>
          <Button
            type="text"
            size="small"
            icon={<EditOutlined />}
            disabled={!editable}
            aria-label={t('common.edit', '编辑')}
            onClick={() => setEditing({ jump })}
          />
          <Popconfirm
            title={t('jumps.deleteConfirm', '删除跳转“{{name}}”？', { name: jump.name })}
            okText={t('common.delete', '删除')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel', '取消')}
            onConfirm={() => remove(jump)}
            disabled={!editable}
          >
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined />}
              disabled={!editable}
              aria-label={t('common.delete', '删除')}
            />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="jumps-tab">
      <div className="dc-tab-actions">
        <Button
          type="primary"
          icon={<PlusOutlined />}
          disabled={!editable}
          onClick={() => setEditing({ jump: null })}
          data-testid="jump-add"
        >
          {t('jumps.add', '新增跳转')}
        </Button>
      </div>
      <Table<Jump>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list}
        loading={jumps.isFetching}
        pagination={false}
        scroll={{ x: 720 }}
        locale={{ emptyText: t('jumps.empty', '还没有跳转关联。新记录满足条件时，可自动写入另一个数据项。') }}
      />
      <JumpEditor
        item={item}
        jump={editing?.jump ?? null}
        open={editing != null}
        onClose={() => setEditing(null)}
        onSaved={() => void jumps.refetch()}
      />
    </div>
  );
}
