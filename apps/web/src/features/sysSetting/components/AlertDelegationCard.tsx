import { DeleteOutlined, UserAddOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Empty, Form, Modal, Popconfirm, Row, Select, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../app/store/session';
import { formatTime } from '../../../shared/time';
import { validated } from '../../../shared/validated';
import {
  type Delegation,
  type Delegator,
  settingApi,
  settingKeys,
  useDelegations,
  useDelegators,
  useMembers,
} from '../api';

function AddDelegateModal({
  open,
  taken,
  onClose,
  onDone,
}: {
  open: boolean;
  taken: ReadonlySet<number>;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('sysSetting');
  const { message } = App.useApp();
  const { user: me } = useSession();
  const [search, setSearch] = useState('');
  const members = useMembers(search, open);
  const [form] = Form.useForm<{ delegateId: number }>();
  const [saving, setSaving] = useState(false);

  const options = (members.data?.list ?? [])
    .filter((m) => m.userId !== me?.userId && !taken.has(m.userId))
    .map((m) => ({ value: m.userId, label: `${m.userName} (${m.phone})` }));

  const close = () => {
    form.resetFields();
    setSearch('');
    onClose();
  };

  const submit = async () => {
    const checked = await validated(form);
    if (!checked) return;
    const { delegateId } = checked;
    setSaving(true);
    try {
      const envelope = await settingApi.addDelegate(delegateId);
      message.success(envelope.message);
      onDone();
      close();
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('delegation.add', '添加告警代理人')}
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={close}
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="delegate-form">
        <Form.Item
          name="delegateId"
          label={t('delegation.delegate', '代理人')}
          rules={[{ required: true, message: t('delegation.pickRequired', '请选择一位公司成员') }]}
        >
          <Select<number>
            showSearch={{ onSearch: setSearch, filterOption: false }}
            loading={members.isFetching}
            options={options}
            placeholder={t('delegation.pick', '搜索姓名或手机号')}
            notFoundContent={t('delegation.noCandidates', '没有可选的成员')}
            data-testid="delegate-picker"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Alert delegation: my alarms also go to my delegates; and the people whose alarms come to me. */
export function AlertDelegationCard() {
  const { t } = useTranslation('sysSetting');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const delegations = useDelegations();
  const delegators = useDelegators();
  const [adding, setAdding] = useState(false);
  const taken = useMemo(() => new Set((delegations.data ?? []).map((d) => d.delegateId)), [delegations.data]);
  const since = (value: string) => formatTime(value, 'yyyy-MM-dd');

  const remove = async (delegation: Delegation) => {
    try {
      const envelope = await settingApi.deleteDelegation(delegation.id);
      message.success(envelope.message);
      await delegations.refetch();
    } catch {
      // the http client showed the error
    }
  };

  return (
    <Card variant="borderless" title={t('delegation.title', '告警代理')} data-testid="alert-delegation">
      <Typography.Paragraph type="secondary">
        {t(
          'delegation.intro',
          '您的告警会同时发送给您的代理人，例如休假期间由同事代为处理。代理仅在本公司内有效。',
        )}
      </Typography.Paragraph>
      <Row gutter={[24, 24]}>
        <Col xs={24} xl={12}>
          <Typography.Title level={5} style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
            {t('delegation.mine', '我的代理人')}
            <Button
              size="small"
              type="primary"
              icon={<UserAddOutlined />}
              onClick={() => setAdding(true)}
              data-testid="delegate-add"
            >
              {t('delegation.addShort', '添加')}
            </Button>
          </Typography.Title>
          <Table<Delegation>
            rowKey="id"
            size="small"
            loading={delegations.isFetching}
            dataSource={delegations.data ?? []}
            pagination={false}
            locale={{
              emptyText: (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={t('delegation.noneMine', '尚未设置代理人')}
                />
              ),
            }}
            columns={[
              { title: t('delegation.name', '姓名'), dataIndex: 'delegateName' },
              { title: t('delegation.phone', '手机号'), dataIndex: 'delegatePhone', width: 130 },
              {
                title: t('delegation.since', '设置时间'),
                dataIndex: 'createdAt',
                width: 110,
                responsive: ['sm'],
                render: since,
              },
              {
                key: 'actions',
                width: 70,
                align: 'right',
                render: (_, row) => (
                  <Popconfirm
                    title={t('delegation.deleteConfirm', '确定不再让“{{name}}”代理您的告警吗？', {
                      name: row.delegateName,
                    })}
                    okText={t('common.ok', '确定')}
                    okButtonProps={{ danger: true }}
                    cancelText={t('common.cancel', '取消')}
                    onConfirm={() => remove(row)}
                  >
                    <Button
                      type="link"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('common.delete', '删除')}
                      data-testid={`delegate-delete-${row.delegatePhone}`}
                    />
                  </Popconfirm>
                ),
              },
            ]}
          />
        </Col>
        <Col xs={24} xl={12}>
          <Typography.Title level={5}>{t('delegation.toMe', '委托我代理的人')}</Typography.Title>
          <Table<Delegator>
            rowKey="id"
            size="small"
            loading={delegators.isFetching}
            dataSource={delegators.data ?? []}
            pagination={false}
            locale={{
              emptyText: (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={t('delegation.noneToMe', '暂无人委托您')}
                />
              ),
            }}
            columns={[
              { title: t('delegation.name', '姓名'), dataIndex: 'delegatorName' },
              { title: t('delegation.phone', '手机号'), dataIndex: 'delegatorPhone', width: 130 },
              {
                title: t('delegation.since', '设置时间'),
                dataIndex: 'createdAt',
                width: 110,
                responsive: ['sm'],
                render: since,
              },
            ]}
          />
        </Col>
      </Row>
      <AddDelegateModal
        open={adding}
        taken={taken}
        onClose={() => setAdding(false)}
        onDone={() => void queryClient.invalidateQueries({ queryKey: settingKeys.delegations })}
      />
    </Card>
  );
}
