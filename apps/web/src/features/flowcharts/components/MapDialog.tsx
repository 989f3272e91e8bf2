/**
 * Choose a device's family template and map each of its roles onto one of the device's points.
 * A template opened for the first time starts from the roles matched by name (autoMapRoles);
 * the device's saved map is kept for its own template. The server checks again: a refusal names
 * the role it is about.
 */
import { autoMapRoles, type FamilyLang, type RoleMap } from '@platform/domain';
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
  const [map, setMap] = useState<RoleMap>(() => startMap(templateId));
  const [saving, setSaving] = useState(false);
  const [refused, setRefused] = useState<{ role: string; text: string } | null>(null);

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
    setRefused(null);
  };

  const save = async () => {
    if (!template) return;
    setSaving(true);
    try {
      const envelope = await flowChartApi.set(view.device.id, template.id, map);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: flowChartKeys.all });
      onClose();
    } catch (error) {
      const field = error instanceof ApiError ? (error.data as { field?: string } | null)?.field : undefined;
      if (field?.startsWith('map.')) setRefused({ role: field.slice(4), text: (error as Error).message });
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
            onClick={() => template && setMap(autoMapRoles(template.roles, view.points))}
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
                      status={refused?.role === r.key ? 'error' : undefined}
                      options={options}
                      onChange={(value?: string) => {
                        const p = value ? view.points.find((x) => pointKey(x) === value) : undefined;
                        setMap((m) => ({ ...m, [r.key]: p ? { itemId: p.itemId, field: p.field } : null }));
                        if (refused?.role === r.key) setRefused(null);
                      }}
                      data-testid={`flowchart-role-${r.key}`}
                    />
                    {refused?.role === r.key ? (
                      <Typography.Text type="danger">{refused.text}</Typography.Text>
                    ) : null}
                  </Space>
                );
              },
            },
          ]}
        />
      </Space>
    </Modal>
  );
}
