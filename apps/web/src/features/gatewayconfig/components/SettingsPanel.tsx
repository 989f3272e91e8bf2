import { ArrowLeftOutlined, ArrowRightOutlined, CloseOutlined, DeleteOutlined } from '@ant-design/icons';
import {
  type ConfigProblem,
  type GatewayConfig,
  type GatewayNode,
  type Lang,
  linkRefusal,
  messageFor,
  NAME_MAX_LENGTH,
} from '@platform/domain';
import { Button, Empty, Form, Input, InputNumber, Popconfirm, Radio, Select, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConfigLookupsView } from '../api';
import { type FieldSpec, fieldLabelKey, NODE_FIELDS, settingKey } from './fields';
import { NODE_ICONS } from './nodeIcons';

type Settings = Record<string, unknown>;

export interface FocusRequest {
  field: string | null;
  /** a new number each request, so focusing the same field twice works */
  nonce: number;
}

interface Props {
  node: GatewayNode | null;
  config: GatewayConfig;
  lookups: ConfigLookupsView | undefined;
  problems: readonly ConfigProblem[];
  readOnly: boolean;
  focus: FocusRequest | null;
  onChange: (next: GatewayNode) => void;
  onDelete: (id: string) => void;
  onLink: (from: string, to: string) => void;
  onUnlink: (from: string, to: string) => void;
}

/** Drops empty values, so a cleared input reads as "not set" (what the check calls required). */
function cleanSettings(values: Settings): Settings {
  const out: Settings = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '') continue;
    out[key] = value;
  }
  return out;
}

/** The settings of the selected node: its name, the fields of its type, its links; problems under their fields. */
export function SettingsPanel(props: Props) {
  const { node } = props;
  const { t } = useTranslation('gatewayconfig');
  if (!node) {
    return (
      <Empty
        className="gc-panel-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('editor.noSelection')}
      />
    );
  }
  return <NodeForm key={node.id} {...props} node={node} />;
}

function NodeForm({
  node,
  config,
  lookups,
  problems,
  readOnly,
  focus,
  onChange,
  onDelete,
  onLink,
  onUnlink,
}: Props & { node: GatewayNode }) {
  const { t, i18n } = useTranslation('gatewayconfig');
  const lang: Lang = i18n.language === 'en' ? 'en' : 'zh';
  const [form] = Form.useForm();
  const linksRef = useRef<HTMLDivElement>(null);
  const [linksFlash, setLinksFlash] = useState(false);
  const settings = node.settings as unknown as Settings;
  const Icon = NODE_ICONS[node.type];

  useEffect(() => {
    if (!focus) return;
    if (focus.field === 'links' || focus.field == null) {
      linksRef.current?.scrollIntoView({ block: 'nearest' });
      if (focus.field === 'links') {
        setLinksFlash(true);
        const timer = window.setTimeout(() => setLinksFlash(false), 1200);
        return () => window.clearTimeout(timer);
      }
      return;
    }
    const field = focus.field;
    // after the panel has drawn this node's fields
    const timer = window.setTimeout(() => {
      form.scrollToField(field, { block: 'center' });
      (form.getFieldInstance(field) as { focus?: () => void } | undefined)?.focus?.();
    }, 50);
    return () => window.clearTimeout(timer);
  }, [focus, form]);

  const messagesOf = (field: string) =>
    problems
      .filter((p) => p.field === field)
      .map((p) => ({ severity: p.severity, text: messageFor(p.key, lang, p.params) }));
  const status = (field: string) => {
    const list = messagesOf(field);
    if (list.length === 0) return {};
    return {
      validateStatus: list.some((m) => m.severity === 'error') ? ('error' as const) : ('warning' as const),
      help: list.map((m) => m.text).join('; '),
    };
  };

  // the changed values over the settings as they were: settings the form does not show (a
  // packet's frame or interval, fields of the other addressing mode) are kept
  const change = (changed: Settings) => {
    const name = typeof changed.name === 'string' ? changed.name : node.name;
    const next: Settings = { ...settings };
    for (const [field, value] of Object.entries(changed))
      if (field !== 'name') next[settingKey(field)] = value;
    onChange({ ...node, name, settings: cleanSettings(next) } as unknown as GatewayNode);
  };
  const initialValues: Settings = { name: node.name };
  for (const spec of NODE_FIELDS[node.type]) initialValues[spec.field] = settings[settingKey(spec.field)];

  const links = config.links.filter((l) => l.from === node.id || l.to === node.id);
  const nameOf = (id: string) => config.nodes.find((n) => n.id === id)?.name ?? id;
  const targets = config.nodes.filter(
    (other) =>
      linkRefusal(
        { id: node.id, type: node.type, settings: settings as never },
        { id: other.id, type: other.type, settings: other.settings as never },
        config.links,
      ) === null,
  );
  const wholeNode = problems.filter((p) => p.field == null);

  return (
    <div className="gc-settings" data-testid="gc-settings" data-node={node.id}>
      <Space className="gc-settings-head" align="center">
        <Icon />
        <Typography.Text strong>{t(`types.${node.type}`)}</Typography.Text>
        <Typography.Text type="secondary" copyable={{ text: node.id }}>
          {node.id}
        </Typography.Text>
      </Space>
      {wholeNode.map((p) => (
        <Typography.Paragraph
          key={p.key}
          type={p.severity === 'error' ? 'danger' : 'warning'}
          className="gc-settings-note"
        >
          {messageFor(p.key, lang, p.params)}
        </Typography.Paragraph>
      ))}
      <Form
        form={form}
        layout="vertical"
        size="middle"
        disabled={readOnly}
        initialValues={initialValues}
        onValuesChange={change}
      >
        <Form.Item name="name" label={t('fields.name')} {...status('name')}>
          <Input maxLength={NAME_MAX_LENGTH * 2} data-testid="gc-field-name" />
        </Form.Item>
        {NODE_FIELDS[node.type].map((spec) =>
          'show' in spec && spec.show && !spec.show(settings) ? null : (
            <Form.Item
              key={spec.field}
              name={spec.field}
              label={t(fieldLabelKey(node.type, spec.field))}
              {...status(spec.field)}
            >
              {input(spec)}
            </Form.Item>
          ),
        )}
      </Form>
      <div ref={linksRef} className={`gc-links${linksFlash ? ' gc-links-flash' : ''}`} data-testid="gc-links">
        <Typography.Text strong>{t('fields.links')}</Typography.Text>
        {messagesOf('links').map((m) => (
          <Typography.Paragraph
            key={m.text}
            type={m.severity === 'error' ? 'danger' : 'warning'}
            className="gc-settings-note"
          >
            {m.text}
          </Typography.Paragraph>
        ))}
        <ul className="gc-link-list">
          {links.map((l) => (
            <li key={`${l.from}->${l.to}`}>
              {l.from === node.id ? <ArrowRightOutlined /> : <ArrowLeftOutlined />}
              <span>{nameOf(l.from === node.id ? l.to : l.from)}</span>
              {!readOnly && (
                <Button
                  size="small"
                  type="text"
                  icon={<CloseOutlined />}
                  aria-label="unlink"
                  onClick={() => onUnlink(l.from, l.to)}
                />
              )}
            </li>
          ))}
        </ul>
        {!readOnly && targets.length > 0 && (
          <Select
            size="small"
            className="gc-link-add"
            placeholder={`${t('fields.links')} →`}
            value={null}
            data-testid="gc-link-add"
            options={targets.map((n) => ({ value: n.id, label: `${n.name} · ${t(`types.${n.type}`)}` }))}
            onChange={(to: string) => onLink(node.id, to)}
          />
        )}
      </div>
      {!readOnly && (
        <Popconfirm
          title={t('editor.deleteConfirm', { name: node.name })}
          onConfirm={() => onDelete(node.id)}
        >
          <Button danger icon={<DeleteOutlined />} className="gc-delete" data-testid="gc-delete-node">
            {t('editor.delete')}
          </Button>
        </Popconfirm>
      )}
    </div>
  );

  function input(spec: FieldSpec) {
    const testId = `gc-field-${spec.field.replace('.', '-')}`;
    switch (spec.kind) {
      case 'int':
        return (
          <InputNumber
            min={spec.range[0]}
            max={spec.range[1]}
            precision={0}
            className="gc-wide"
            data-testid={testId}
          />
        );
      case 'text':
        return <Input maxLength={spec.max} placeholder={spec.placeholder} data-testid={testId} />;
      case 'select':
      case 'radio': {
        const options = spec.options.map((value) => ({
          value,
          label: spec.labels ? t(`${spec.labels}.${value}`) : String(value),
        }));
        if (spec.kind === 'radio')
          return <Radio.Group options={options} optionType="button" data-testid={testId} />;
        return (
          <Select
            options={options}
            allowClear={spec.optional}
            placeholder={spec.optional ? t('options.encodingNone') : undefined}
            data-testid={testId}
          />
        );
      }
      case 'package':
      case 'parsedPackage':
        return (
          <Select
            showSearch
            optionFilterProp="label"
            data-testid={testId}
            options={(lookups?.packages ?? []).map((p) => ({
              value: p.id,
              label: `${p.name} (#${p.id})`,
              disabled: spec.kind === 'parsedPackage' && p.parserValues == null,
            }))}
          />
        );
      case 'value': {
        const values = parsedValues();
        return values ? (
          <Select showSearch data-testid={testId} options={values.map((v) => ({ value: v, label: v }))} />
        ) : (
          <Input maxLength={NAME_MAX_LENGTH} data-testid={testId} />
        );
      }
      case 'item':
        return (
          <Select
            showSearch
            optionFilterProp="label"
            data-testid={testId}
            options={(lookups?.items ?? []).map((item) => ({ value: item.id, label: item.name }))}
          />
        );
      case 'itemField': {
        const item = lookups?.items.find((i) => i.id === settings.itemId);
        return (
          <Select
            data-testid={testId}
            options={(item?.fields ?? []).map((f) => ({ value: f.key, label: `${f.name} (${f.key})` }))}
          />
        );
      }
      case 'comPort':
        return (
          <Select
            data-testid={testId}
            options={config.nodes.flatMap((n) =>
              n.type === 'com' && typeof n.settings.port === 'number'
                ? [{ value: n.settings.port, label: `${n.name} (${n.settings.port})` }]
                : [],
            )}
          />
        );
    }
  }

  /** the parsed values of the package of the parser this element reads, when known */
  function parsedValues(): string[] | null {
    const parserId = config.links.find((l) => l.to === node.id)?.from;
    const parser = config.nodes.find((n) => n.id === parserId && n.type === 'serialParser');
    const packetId = parser?.type === 'serialParser' ? parser.settings.packetId : undefined;
    const values = lookups?.packages.find((p) => p.id === packetId)?.parserValues;
    return values && values.length > 0 ? values : null;
  }
}
