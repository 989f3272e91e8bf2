import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { DataPermission, PermissionEntry, PermissionScope } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Flex, Modal, Radio, Select, Skeleton, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cabinApi, cabinKeys, useGroupOptions, useNodePermission, usePeople } from '../api';
import { can } from '../cabin';

export const LEVELS: DataPermission[] = [0, 1, 2, 3];

function LevelSelect({
  value,
  onChange,
  disabled,
  testId,
}: {
  value: DataPermission;
  onChange: (level: DataPermission) => void;
  disabled?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('datacabin');
  return (
    <Select<DataPermission>
      value={value}
      onChange={onChange}
      disabled={disabled}
      style={{ width: 150 }}
      data-testid={testId}
      options={LEVELS.map((level) => ({ value: level, label: t(`level.${level}`, String(level)) }))}
    />
  );
}

interface Draft {
  mode: 'inherit' | 'custom';
  company: DataPermission | null;
  groups: Array<{ subjectId: number | null; level: DataPermission }>;
  users: Array<{ subjectId: number | null; level: DataPermission }>;
}

function toDraft(mode: 'inherit' | 'custom', entries: PermissionEntry[]): Draft {
  const company = entries.find((e) => e.scope === 'company');
  const of = (scope: PermissionScope) =>
    entries.filter((e) => e.scope === scope).map((e) => ({ subjectId: e.subjectId, level: e.level }));
  return { mode, company: company ? company.level : null, groups: of('group'), users: of('user') };
}

function toEntries(draft: Draft): PermissionEntry[] {
  const entries: PermissionEntry[] = [];
  if (draft.company != null) entries.push({ scope: 'company', subjectId: null, level: draft.company });
  for (const g of draft.groups)
    if (g.subjectId != null) entries.push({ scope: 'group', subjectId: g.subjectId, level: g.level });
  for (const u of draft.users)
    if (u.subjectId != null) entries.push({ scope: 'user', subjectId: u.subjectId, level: u.level });
  return entries;
}

/**
 * The data permissions of one cabin node: inherit from the parent directory, or custom
 * entries for the whole company, for groups and for persons. Used by the cabin's dialog and
 * by the data item configuration's tab. Saving needs administrator level on the node.
 */
export function PermissionEditor({ nodeId, onSaved }: { nodeId: number; onSaved?: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const permission = useNodePermission(nodeId);

  if (permission.isLoading || !permission.data) return <Skeleton active />;

  const save = async (mode: 'inherit' | 'custom', entries: PermissionEntry[]) => {
    try {
      const envelope = await cabinApi.setPermission({ nodeId, mode, entries });
      message.success(envelope.message);
      void queryClient.invalidateQueries({ queryKey: cabinKeys.all });
      onSaved?.();
    } catch {
      // the http client showed the error
    }
  };

  return (
    <PermissionForm
      mode={permission.data.mode}
      entries={permission.data.entries}
      editable={can.admin(permission.data.level)}
      onSave={save}
    />
  );
}

/**
 * The cabin's permission model as a form, whatever holds the node: a cabin entry, or a device
 * (device management's permission page edits a device's node through its own call). Custom
 * entries are sent only in custom mode.
 */
export function PermissionForm({
  mode,
  entries,
  editable,
  onSave,
}: {
  mode: 'inherit' | 'custom';
  entries: PermissionEntry[];
  /** administrator level on the node: others see the settings without changing them */
  editable: boolean;
  onSave: (mode: 'inherit' | 'custom', entries: PermissionEntry[]) => Promise<void>;
}) {
  const { t } = useTranslation('datacabin');
  const groups = useGroupOptions(true);
  const people = usePeople(true);
  const [draft, setDraft] = useState<Draft>(() => toDraft(mode, entries));
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    setDraft(toDraft(mode, entries));
  }, [mode, entries]);

  const save = async () => {
    setSaving(true);
    try {
      await onSave(draft.mode, draft.mode === 'custom' ? toEntries(draft) : []);
    } finally {
      setSaving(false);
    }
  };

  const rows = (
    scope: 'groups' | 'users',
    options: Array<{ value: number; label: string }>,
    addLabel: string,
  ) => {
    const list = draft[scope];
    const taken = new Set(list.map((r) => r.subjectId));
    const update = (index: number, patch: Partial<(typeof list)[number]>) =>
      setDraft({ ...draft, [scope]: list.map((r, i) => (i === index ? { ...r, ...patch } : r)) });
    return (
      <div className="dc-perm-block">
        {list.length === 0 && (
          <Typography.Text type="secondary">{t('perm.none', '暂无条目')}</Typography.Text>
        )}
        {list.map((row, index) => (
          <Flex key={`${scope}-${row.subjectId ?? `new${index}`}`} gap={8} wrap className="dc-perm-row">
            <Select<number>
              showSearch
              optionFilterProp="label"
              style={{ flex: '1 1 180px', minWidth: 160 }}
              placeholder={
                scope === 'groups' ? t('perm.pickGroup', '选择用户组') : t('perm.pickUser', '选择人员')
              }
              value={row.subjectId ?? undefined}
              disabled={!editable}
              options={options.filter((o) => o.value === row.subjectId || !taken.has(o.value))}
              onChange={(subjectId) => update(index, { subjectId })}
              data-testid={`perm-${scope}-subject-${index}`}
            />
            <LevelSelect
              value={row.level}
              disabled={!editable}
              onChange={(level) => update(index, { level })}
              testId={`perm-${scope}-level-${index}`}
            />
            <Button
              icon={<DeleteOutlined />}
              disabled={!editable}
              aria-label={t('common.delete', '删除')}
              onClick={() => setDraft({ ...draft, [scope]: list.filter((_, i) => i !== index) })}
            />
          </Flex>
        ))}
        <Button
          type="dashed"
          size="small"
          icon={<PlusOutlined />}
          disabled={!editable}
          onClick={() => setDraft({ ...draft, [scope]: [...list, { subjectId: null, level: 1 }] })}
          data-testid={`perm-add-${scope}`}
        >
          {addLabel}
        </Button>
      </div>
    );
  };

  return (
    <div data-testid="permission-editor">
      {!editable && (
        <Alert
          type="info"
          showIcon
          className="dc-gap"
          title={t('perm.readOnly', '您不是此节点的管理员，只能查看权限设置。')}
        />
      )}
      <Radio.Group
        value={draft.mode}
        disabled={!editable}
        onChange={(e) => setDraft({ ...draft, mode: e.target.value as Draft['mode'] })}
        className="dc-gap"
        data-testid="perm-mode"
      >
        <Radio value="inherit">{t('perm.inherit', '默认（继承上级目录）')}</Radio>
        <Radio value="custom">{t('perm.custom', '自定义')}</Radio>
      </Radio.Group>
      {draft.mode === 'custom' ? (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          <div>
            <Typography.Title level={5}>{t('perm.company', '全公司')}</Typography.Title>
            <Flex gap={8} align="center" wrap>
              <Select<DataPermission | 'unset'>
                style={{ width: 200 }}
                disabled={!editable}
                value={draft.company ?? 'unset'}
                onChange={(value) => setDraft({ ...draft, company: value === 'unset' ? null : value })}
                data-testid="perm-company-level"
                options={[
                  { value: 'unset', label: t('perm.unset', '不设置') },
                  ...LEVELS.map((level) => ({ value: level, label: t(`level.${level}`, String(level)) })),
                ]}
              />
            </Flex>
          </div>
          <div>
            <Typography.Title level={5}>{t('perm.groups', '用户组')}</Typography.Title>
            {rows(
              'groups',
              (groups.data?.list ?? []).map((g) => ({ value: g.id, label: g.name })),
              t('perm.addGroup', '添加用户组'),
            )}
          </div>
          <div>
            <Typography.Title level={5}>{t('perm.users', '人员')}</Typography.Title>
            {rows(
              'users',
              (people.data?.list ?? []).map((p) => ({
                value: p.userId,
                label: `${p.userName} (${p.phone})`,
              })),
              t('perm.addUser', '添加人员'),
            )}
          </div>
          <Typography.Text type="secondary">
            {t(
              'perm.rule',
              '个人条目优先，其次取所在用户组中的最高级别，再次取全公司条目；都没有时为无权限。创建者与公司管理员始终是管理员。',
            )}
          </Typography.Text>
        </Space>
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('perm.inheritHint', '权限沿用上级目录的设置；顶层默认所有成员可读写。')}
        />
      )}
      <Flex justify="end" className="dc-gap-top">
        <Button type="primary" loading={saving} disabled={!editable} onClick={save} data-testid="perm-save">
          {t('common.save', '保存')}
        </Button>
      </Flex>
    </div>
  );
}

export function PermissionModal({
  nodeId,
  name,
  onClose,
}: {
  nodeId: number | null;
  name: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('datacabin');
  return (
    <Modal
      open={nodeId != null}
      title={t('perm.title', '权限设置：{{name}}', { name })}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      width={640}
    >
      {nodeId != null && <PermissionEditor nodeId={nodeId} onSaved={onClose} />}
    </Modal>
  );
}
