/**
 * Choose a device's family template, map each of its roles onto one of the device's points and
 * each command its switches send onto one of the device's commands. A template opened for the
 * first time starts from roles and commands matched by name (autoMapRoles, autoMapCommands); the
 * device's saved maps are kept for its own template. The server checks again: a refusal names
 * the role or command it is about.
 */
import {
  autoMapCommands,
  autoMapRoles,
  type CommandMap,
  type FamilyLang,
  type RoleMap,
} from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/http/client';
import { type FlowChartView, flowChartApi, flowChartKeys } from '../api';

const pointKey = (p: { itemId: number; field: string }) => `${p.itemId}:${p.field}`;

export function MapDialog({
  view,
  lang,
  open,
  onClose,
}: {
  view: FlowChartView;
  lang: FamilyLang;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('flowcharts');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [templateId, setTemplateId] = useState<number | null>(
    view.chart?.templateId ?? view.templates[0]?.id ?? null,
  );
  const template = view.templates.find((x) => x.id === templateId) ?? null;
  const startMap = (id: number | null): RoleMap => {
    const chosen = view.templates.find((x) => x.id === id);
    if (!chosen) return {};
    if (view.chart?.templateId === id) return view.chart.map;
    return autoMapRoles(chosen.roles, view.points);
  };
  const startCommands = (id: number | null): CommandMap => {
    const chosen = view.templates.find((x) => x.id === id);
    if (!chosen) return {};
    if (view.chart?.templateId === id) return view.chart.commands;
    return autoMapCommands(chosen.commands, view.commands);
  };
  const [map, setMap] = useState<RoleMap>(() => startMap(templateId));
  const [commands, setCommands] = useState<CommandMap>(() => startCommands(templateId));
  const [saving, setSaving] = useState(false);
  /** the server's refusal: `map.<role>` or `commands.<name>` and its text */
  const [refused, setRefused] = useState<{ field: string; text: string } | null>(null);

  const options = useMemo(
    () =>
      view.points.map((p) => ({
        value: pointKey(p),
        label: `${p.itemName} · ${p.fieldName}${p.unit ? ` (${p.unit})` : ''}`,
      })),
    [view.points],
  );
  const matched = template ? template.roles.filter((r) => map[r.key]).length : 0;

  const choose = (id: number) => {
    setTemplateId(id);
    setMap(startMap(id));
    setCommands(startCommands(id));
    setRefused(null);
  };

  const save = async () => {
    if (!template) return;
    setSaving(true);
    try {
      const envelope = await flowChartApi.set(view.device.id, template.id, map, commands);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: flowChartKeys.all });
      onClose();
    } catch (error) {
      const field = error instanceof ApiError ? (error.data as { field?: string } | null)?.field : undefined;
      if (field?.startsWith('map.') || field?.startsWith('commands.'))
        setRefused({ field, text: (error as Error).message });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('map.title', '选择设备族并对应数据点')}
      width={760}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.cancel', '取消')}</Button>
          <Button
            type="primary"
            loading={saving}
            disabled={!template}
            onClick={save}
            data-testid="flowchart-map-save"
          >
            {t('map.save', '保存')}
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <Space wrap>
          <Typography.Text>{t('map.family', '设备族')}</Typography.Text>
          <Select
            style={{ minWidth: 240 }}
            value={templateId ?? undefined}
            onChange={choose}
            options={view.templates.map((x) => ({ value: x.id, label: x.name[lang] }))}
            data-testid="flowchart-template"
          />
          <Button
            onClick={() => {
              if (!template) return;
              setMap(autoMapRoles(template.roles, view.points));
              setCommands(autoMapCommands(template.commands, view.commands));
            }}
            disabled={!template}
            data-testid="flowchart-automap"
          >
            {t('map.auto', '按名称自动对应')}
          </Button>
          {template ? (
            <Tag
              color={matched === template.roles.length ? 'green' : 'orange'}
              data-testid="flowchart-matched"
            >
              {t('map.matched', '已对应 {{n}}/{{total}}', { n: matched, total: template.roles.length })}
            </Tag>
          ) : null}
        </Space>
        {view.points.length === 0 ? (
          <Typography.Text type="warning">
            {t('map.noPoints', '此设备还没有可绑定的数据点：先为网关配置采集并下发配置。')}
          </Typography.Text>
        ) : null}
        <Table
          size="small"
          rowKey="key"
          pagination={false}
          dataSource={template?.roles ?? []}
          data-testid="flowchart-map-table"
          columns={[
            {
              title: t('map.role', '角色'),
              key: 'role',
              render: (_, r) => (
                <span>
                  {r.name[lang]}
                  {r.unit ? <Typography.Text type="secondary"> ({r.unit})</Typography.Text> : null}
                </span>
              ),
            },
            {
              title: t('map.point', '设备数据点'),
              key: 'point',
              width: 420,
              render: (_, r) => {
                const current = map[r.key];
                return (
                  <Space direction="vertical" size={2} style={{ width: '100%' }}>
                    <Select
                      allowClear
                      showSearch={{ optionFilterProp: 'label' }}
                      style={{ width: '100%' }}
                      placeholder={t('map.none', '不对应（该元素不显示数值）')}
                      value={current ? pointKey(current) : undefined}
                      status={refused?.field === `map.${r.key}` ? 'error' : undefined}
                      options={options}
                      onChange={(value?: string) => {
                        const p = value ? view.points.find((x) => pointKey(x) === value) : undefined;
                        setMap((m) => ({ ...m, [r.key]: p ? { itemId: p.itemId, field: p.field } : null }));
                        if (refused?.field === `map.${r.key}`) setRefused(null);
                      }}
                      data-testid={`flowchart-role-${r.key}`}
                    />
                    {refused?.field === `map.${r.key}` ? (
                      <Typography.Text type="danger">{refused.text}</Typography.Text>
                    ) : null}
                  </Space>
                );
              },
            },
          ]}
        />
        {template && template.commands.length > 0 ? (
          <CommandTable
            names={template.commands}
            deviceCommands={view.commands}
            commands={commands}
            refused={refused}
            onChange={(name, command) => {
              setCommands((c) => ({ ...c, [name]: command }));
              if (refused?.field === `commands.${name}`) setRefused(null);
            }}
          />
        ) : null}
      </Space>
    </Modal>
  );
}

/** Each command the template's switches send, mapped onto one of the device's commands. */
function CommandTable({
  names,
  deviceCommands,
  commands,
  refused,
  onChange,
}: {
  names: string[];
  deviceCommands: string[];
  commands: CommandMap;
  refused: { field: string; text: string } | null;
  onChange: (name: string, command: string | null) => void;
}) {
  const { t } = useTranslation('flowcharts');
  return (
    <Space direction="vertical" size={6} style={{ width: '100%' }} data-testid="flowchart-command-table">
      <Typography.Text strong>{t('map.commandsTitle', '开关指令')}</Typography.Text>
      {deviceCommands.length === 0 ? (
        <Typography.Text type="warning" data-testid="flowchart-no-commands">
          {t('map.noCommands', '此设备运行的配置中没有平台可下发的指令节点：流程图上的开关将不可操作。')}
        </Typography.Text>
      ) : null}
      <Table
        size="small"
        rowKey={(name) => name}
        pagination={false}
        dataSource={names}
        columns={[
          {
            title: t('map.templateCommand', '模板指令'),
            key: 'name',
            render: (_, name) => <Typography.Text code>{name}</Typography.Text>,
          },
          {
            title: t('map.deviceCommand', '设备指令'),
            key: 'command',
            width: 420,
            render: (_, name) => {
              const field = `commands.${name}`;
              return (
                <Space direction="vertical" size={2} style={{ width: '100%' }}>
                  <Select
                    allowClear
                    style={{ width: '100%' }}
                    placeholder={t('map.noCommand', '不对应（开关不发送此指令）')}
                    value={commands[name] ?? undefined}
                    status={refused?.field === field ? 'error' : undefined}
                    options={deviceCommands.map((c) => ({ value: c, label: c }))}
                    onChange={(value?: string) => onChange(name, value ?? null)}
                    data-testid={`flowchart-command-${name}`}
                  />
                  {refused?.field === field ? (
                    <Typography.Text type="danger">{refused.text}</Typography.Text>
                  ) : null}
                </Space>
              );
            },
          },
        ]}
      />
    </Space>
  );
}
