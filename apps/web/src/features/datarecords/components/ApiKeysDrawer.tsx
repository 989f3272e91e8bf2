import { CopyOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { type FieldDef, keyMqttUsername, resultTopic, submitTopic } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Drawer,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Radio,
  Select,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMinute } from '../../../shared/time';
import { validated } from '../../../shared/validated';
import { drApi, drKeys, type KeyKind, type SubmitKey, useSubmitEndpoints, useSubmitKeys } from '../api';
import { sampleValue } from '../format';

interface CreateValues {
  name: string;
  kind: KeyKind;
  deviceId?: string;
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** One example record of this item for the help panel: field names with sample values. */
export function exampleRecord(itemId: number, fields: FieldDef[]): Record<string, unknown> {
  const record: Record<string, unknown> = { itemId, ts: dayjs().startOf('minute').toISOString() };
  fields.forEach((field, index) => {
    const value = sampleValue(field, index);
    if (value !== null) record[field.name] = value;
  });
  return record;
}

/** Submission keys (list, create shown once, revoke) and how to submit to this item over HTTP and MQTT. */
export function ApiKeysDrawer({
  open,
  onClose,
  itemId,
  fields,
}: {
  open: boolean;
  onClose: () => void;
  itemId: number;
  fields: FieldDef[];
}) {
  const { t } = useTranslation('datarecords');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const keys = useSubmitKeys(open);
  const [form] = Form.useForm<CreateValues>();
  const [creating, setCreating] = useState(false);
  const [saving, setSaving] = useState(false);
  const [created, setCreated] = useState<{ id: number; key: string } | null>(null);
  /** the key whose MQTT username the examples show */
  const [exampleKeyId, setExampleKeyId] = useState<number | null>(null);
  const kind = Form.useWatch('kind', form);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: drKeys.keys });

  const create = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await drApi.createKey({
        name: values.name.trim(),
        kind: values.kind,
        deviceId: values.kind === 'device' ? values.deviceId?.trim() : undefined,
      });
      setCreating(false);
      form.resetFields();
      setCreated(envelope.data);
      setExampleKeyId(envelope.data.id);
      refresh();
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  const revoke = async (key: SubmitKey) => {
    try {
      const envelope = await drApi.revokeKey(key.id);
      message.success(envelope.message);
      refresh();
    } catch {
      // the http client showed the error
    }
  };

  const origin = window.location.origin;
  const body = JSON.stringify(exampleRecord(itemId, fields));
  const curl = `curl -X POST '${origin}/general/smartdata/submit' \\\n  -H 'Authorization: <KEY>' \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'`;
  const endpoints = useSubmitEndpoints(open);
  const broker = endpoints.data?.mqtt;
  const mqttHost = broker?.host ?? window.location.hostname;
  const mqttPort = broker?.port ?? 1883;
  // the MQTT username is the key's public name; the password is the key, shown only once
  const activeKeys = (keys.data ?? []).filter((k) => !k.revokedAt);
  const exampleKey = activeKeys.find((k) => k.id === exampleKeyId) ?? activeKeys[0] ?? null;
  const username = exampleKey ? keyMqttUsername(exampleKey.id) : 'key-<ID>';
  const login = `-h ${mqttHost} -p ${mqttPort} -u '${username}' -P '<KEY>'`;
  // subscribe first: the broker does not keep answers, a late subscriber misses them
  const mqtt = `# ${t('keys.mqttLogin', '用户名为密钥的 MQTT 用户名，密码为密钥本身')}\n# ${t('keys.mqttResult', '结果发布到')} ${resultTopic(username)}\nmosquitto_sub ${login} \\\n  -t '${resultTopic(username)}' &\n\nmosquitto_pub ${login} -q 1 \\\n  -t '${submitTopic(username)}' \\\n  -m '${body}'`;

  const keysTab = (
    <div data-testid="keys-panel">
      <div className="dr-toolbar">
        <Typography.Text type="secondary">
          {t('keys.intro', '密钥用于从外部（HTTP / MQTT）提交数据。')}
        </Typography.Text>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setCreating(true)}
          data-testid="keys-create"
        >
          {t('keys.create', '新建密钥')}
        </Button>
      </div>
      <Table<SubmitKey>
        size="small"
        rowKey="id"
        loading={keys.isFetching}
        dataSource={keys.data ?? []}
        pagination={false}
        scroll={{ x: 650 }}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('keys.empty', '暂无密钥')} />,
        }}
        columns={[
          { title: t('keys.name', '名称'), dataIndex: 'name' },
          {
            title: t('keys.mqttUsername', 'MQTT 用户名'),
            key: 'mqttUsername',
            width: 130,
            render: (_, row) => (
              <Typography.Text
                code
                copyable={{ text: keyMqttUsername(row.id) }}
                data-testid={`keys-username-${row.name}`}
              >
                {keyMqttUsername(row.id)}
              </Typography.Text>
            ),
          },
          {
            title: t('keys.kind', '类型'),
            dataIndex: 'kind',
            width: 90,
            render: (value: KeyKind) => (
              <Tag color={value === 'device' ? 'geekblue' : 'green'}>
                {value === 'device' ? t('keys.device', '设备') : t('keys.user', '用户')}
              </Tag>
            ),
          },
          {
            title: t('keys.deviceId', '设备 ID'),
            dataIndex: 'deviceId',
            width: 120,
            render: (v?: string) => v || '—',
          },
          {
            title: t('keys.createdAt', '创建时间'),
            dataIndex: 'createdAt',
            width: 150,
            render: (v?: string) => (v ? formatMinute(v) : '—'),
          },
          {
            title: t('common.actions', '操作'),
            key: 'actions',
            width: 80,
            render: (_, row) => (
              <Popconfirm
                title={t('keys.revokeConfirm', '确定吊销密钥“{{name}}”吗？使用它的设备将无法再提交数据。', {
                  name: row.name,
                })}
                okText={t('common.ok', '确定')}
                okButtonProps={{ danger: true }}
                cancelText={t('common.cancel', '取消')}
                onConfirm={() => revoke(row)}
              >
                <Button type="link" size="small" danger data-testid={`keys-revoke-${row.name}`}>
                  {t('keys.revoke', '吊销')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </div>
  );

  const helpTab = (
    <div className="dr-help" data-testid="keys-help">
      <Typography.Paragraph>
        {t(
          'keys.helpIntro',
          '提交的 JSON 必须包含 itemId；ts 可选（默认为到达时间）；其余键为字段名或字段键。可提交单条或数组，任一条有误则全部不写入。',
        )}
      </Typography.Paragraph>
      <Typography.Title level={5}>HTTP</Typography.Title>
      <pre className="dr-code" data-testid="keys-help-http">
        {curl}
      </pre>
      <Typography.Title level={5}>MQTT</Typography.Title>
      {activeKeys.length > 1 ? (
        <div className="dr-toolbar">
          <Typography.Text type="secondary">{t('keys.exampleKey', '示例使用的密钥')}</Typography.Text>
          <Select
            size="small"
            style={{ minWidth: 200 }}
            value={exampleKey?.id}
            onChange={setExampleKeyId}
            options={activeKeys.map((k) => ({ value: k.id, label: `${k.name} (${keyMqttUsername(k.id)})` }))}
            data-testid="keys-help-key"
          />
        </div>
      ) : null}
      <pre className="dr-code" data-testid="keys-help-mqtt">
        {mqtt}
      </pre>
      <Typography.Paragraph type="secondary">
        {t(
          'keys.helpRule',
          '用户密钥可写入其用户有读写权限的数据项或公开采集的数据项；设备密钥只能写入数据源包含该设备 ID 的数据项或公开采集的数据项。',
        )}
      </Typography.Paragraph>
    </div>
  );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={
        <span>
          <KeyOutlined /> {t('keys.title', '接口密钥')}
        </span>
      }
      size="large"
      styles={{ wrapper: { maxWidth: '100vw' } }}
      destroyOnHidden
    >
      <Tabs
        items={[
          { key: 'keys', label: t('keys.tabKeys', '密钥'), children: keysTab },
          { key: 'help', label: t('keys.tabHelp', '提交示例'), children: helpTab },
        ]}
      />
      <Modal
        open={creating}
        title={t('keys.create', '新建密钥')}
        okText={t('common.ok', '确定')}
        cancelText={t('common.cancel', '取消')}
        confirmLoading={saving}
        onOk={create}
        onCancel={() => setCreating(false)}
        okButtonProps={{ 'data-testid': 'keys-create-ok' }}
      >
        <Form form={form} layout="vertical" initialValues={{ kind: 'user' }}>
          <Form.Item
            name="name"
            label={t('keys.name', '名称')}
            rules={[
              { required: true, whitespace: true, message: t('keys.nameRequired', '请输入名称') },
              { max: 25, message: t('keys.nameTooLong', '名称长度不能超过 25 个字符') },
            ]}
          >
            <Input data-testid="keys-name" />
          </Form.Item>
          <Form.Item name="kind" label={t('keys.kind', '类型')}>
            <Radio.Group
              options={[
                { value: 'user', label: t('keys.user', '用户') },
                { value: 'device', label: t('keys.device', '设备') },
              ]}
            />
          </Form.Item>
          {kind === 'device' ? (
            <Form.Item
              name="deviceId"
              label={t('keys.deviceId', '设备 ID')}
              rules={[
                { required: true, whitespace: true, message: t('keys.deviceIdRequired', '请输入设备 ID') },
              ]}
            >
              <Input data-testid="keys-device-id" />
            </Form.Item>
          ) : null}
        </Form>
      </Modal>
      <Modal
        open={created !== null}
        title={t('keys.createdTitle', '密钥已创建')}
        onCancel={() => setCreated(null)}
        footer={
          <Button type="primary" onClick={() => setCreated(null)} data-testid="keys-created-close">
            {t('keys.saved', '我已保存')}
          </Button>
        }
        maskClosable={false}
      >
        <Alert
          type="warning"
          showIcon
          title={t('keys.once', '密钥只显示这一次，关闭后无法再次查看，请立即复制并妥善保存。')}
          style={{ marginBottom: 12 }}
        />
        <div className="dr-key-box">
          <Typography.Text code className="dr-key" data-testid="keys-created-value">
            {created?.key}
          </Typography.Text>
          <Button
            icon={<CopyOutlined />}
            onClick={async () => {
              if (created && (await copy(created.key))) message.success(t('keys.copied', '已复制'));
              else message.warning(t('keys.copyFailed', '复制失败，请手动选择复制'));
            }}
            data-testid="keys-copy"
          >
            {t('keys.copy', '复制')}
          </Button>
        </div>
        {created ? (
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
            {t('keys.mqttCredentials', 'MQTT 连接：用户名')}{' '}
            <Typography.Text code copyable data-testid="keys-created-username">
              {keyMqttUsername(created.id)}
            </Typography.Text>
            {t('keys.mqttPassword', '，密码为上面的密钥。')}
          </Typography.Paragraph>
        ) : null}
      </Modal>
    </Drawer>
  );
}
