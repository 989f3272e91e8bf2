import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, Popconfirm, Space, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePaging } from '../../../shared/paging';
import { alarmApi, alarmKeys, type RuleInput, type RuleRow, useRules } from '../api';
import { RuleForm } from '../components/RuleForm';

/** /cloudSurveillance/alertRule: the company's alarm rules on readable items (cs_rules). */
export default function AlertRulePage() {
  const { t } = useTranslation('alarms');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { paging, pagination, reset } = usePaging(20);
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<RuleRow | null | 'new'>(null);
  const [saving, setSaving] = useState(false);
  const rules = useRules(paging, name);
  const refresh = () => queryClient.invalidateQueries({ queryKey: alarmKeys.all });
  const save = async (input: RuleInput) => {
    setSaving(true);
    try {
      const res =
        editing && editing !== 'new'
          ? await alarmApi.updateRule(editing.id, input)
          : await alarmApi.addRule(input);
      message.success(res.message);
      setEditing(null);
      await refresh();
    } finally {
      setSaving(false);
    }
  };
  const levelsText = (r: RuleRow) =>
    r.levels.map((l) => `L${l.level} ${l.threshold}${l.high != null ? `..${l.high}` : ''}`).join(' / ');
  return (
    <Card variant="borderless" data-testid="alert-rule-page">
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('rule.search')}
          onSearch={(v) => {
            setName(v.trim());
            reset();
          }}
          style={{ width: 240 }}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('rule.add')}
        </Button>
      </Space>
      <Table<RuleRow>
        rowKey="id"
        loading={rules.isFetching}
        dataSource={rules.data?.list ?? []}
        pagination={pagination(rules.data)}
        scroll={{ x: 900 }}
        locale={{ emptyText: t('rule.empty') }}
        columns={[
          { title: t('fields.name'), dataIndex: 'name' },
          { title: t('fields.item'), render: (_, r) => `${r.itemName} · ${r.fieldName}` },
          { title: t('fields.condition'), render: (_, r) => t(`condition.${r.condition}`) },
          { title: t('fields.levels'), render: (_, r) => levelsText(r) },
          { title: t('fields.durationS'), dataIndex: 'durationS' },
          {
            title: t('fields.channels'),
            render: (_, r) => r.channels.map((c) => <Tag key={c}>{t(`channel.${c}`)}</Tag>),
          },
          {
            title: t('fields.enabled'),
            render: (_, r) => (
              <Switch
                checked={r.enabled}
                aria-label={t('fields.enabled')}
                onChange={async (on) => {
                  await alarmApi.enableRule(r.id, on);
                  await refresh();
                }}
              />
            ),
          },
          {
            title: t('common.actions'),
            render: (_, r) => (
              <Space>
                <Button type="link" onClick={() => setEditing(r)}>
                  {t('common.edit')}
                </Button>
                <Popconfirm
                  title={t('rule.deleteConfirm', { name: r.name })}
                  okText={t('common.delete')}
                  cancelText={t('common.cancel')}
                  onConfirm={async () => {
                    const res = await alarmApi.deleteRule(r.id);
                    message.success(res.message);
                    await refresh();
                  }}
                >
                  <Button type="link" danger>
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <RuleForm
        open={editing !== null}
        rule={editing === 'new' ? null : editing}
        saving={saving}
        onCancel={() => setEditing(null)}
        onSave={save}
      />
    </Card>
  );
}
