/**
 * The property panel: the screen's own settings when nothing is selected, else the selected
 * element's place, style, binding to one of the device's points, threshold rules and its type's
 * settings (a switch's commands are chosen from the device configuration's). A refused field
 * shows its message under it.
 */
import {
  BOARD_LIMITS,
  FLOW_MODES,
  ORIENTATIONS,
  PUMP_SHAPES,
  type Rect,
  SCREEN_IMAGE_FITS,
  SCREEN_LIMITS,
  SCREEN_TEXT_ALIGNS,
  type ScreenBody,
  type ScreenElement,
} from '@platform/domain';
import { Checkbox, Divider, Form, Input, InputNumber, Select, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScreenPoint } from '../api';
import { bindElement, type Problem } from '../edit';
import { pointKey } from '../live';
import { Colour, Field, num, RangeFields, UnitFields } from './fields';
import { RulesEditor } from './RulesEditor';

type Config<T extends ScreenElement['type']> = Extract<ScreenElement, { type: T }>['config'];

function ScreenSettings({
  body,
  onBody,
  problem,
  disabled,
}: {
  body: ScreenBody;
  onBody: (change: Partial<ScreenBody>) => void;
  problem: Problem | null;
  disabled: boolean;
}) {
  const { t } = useTranslation('screens');
  return (
    <>
      <Typography.Title level={5}>{t('panel.screen', '画面')}</Typography.Title>
      <div className="scr-grid2">
        <Field label={t('panel.width', '宽 (px)')} path="width" problem={problem}>
          <InputNumber
            min={BOARD_LIMITS.canvasMin}
            max={BOARD_LIMITS.canvasWidthMax}
            value={body.width}
            disabled={disabled}
            onChange={(v) => onBody({ width: num(v, body.width) })}
            data-testid="screen-width"
          />
        </Field>
        <Field label={t('panel.height', '高 (px)')} path="height" problem={problem}>
          <InputNumber
            min={BOARD_LIMITS.canvasMin}
            max={BOARD_LIMITS.canvasHeightMax}
            value={body.height}
            disabled={disabled}
            onChange={(v) => onBody({ height: num(v, body.height) })}
            data-testid="screen-height"
          />
        </Field>
      </div>
      <Field label={t('panel.background', '背景色')} path="background" problem={problem}>
        <Colour value={body.background} disabled={disabled} onChange={(v) => onBody({ background: v })} />
      </Field>
      <Field label={t('panel.staleSeconds', '数值过期时间 (秒)')} path="staleSeconds" problem={problem}>
        <InputNumber
          min={SCREEN_LIMITS.staleSecondsMin}
          max={SCREEN_LIMITS.staleSecondsMax}
          value={body.staleSeconds}
          disabled={disabled}
          onChange={(v) => onBody({ staleSeconds: num(v, 60) })}
        />
      </Field>
      <Typography.Text type="secondary">
        {t('panel.selectHint', '点击画布上的元素以编辑其属性。')}
      </Typography.Text>
    </>
  );
}

function TypeSettings({
  e,
  setConfig,
  commands,
  problem,
  disabled,
}: {
  e: ScreenElement;
  setConfig: (config: ScreenElement['config']) => void;
  /** the device's commands; null: any name (a device-family template, mapped per device) */
  commands: string[] | null;
  problem: Problem | null;
  disabled: boolean;
}) {
  const { t } = useTranslation('screens');
  const field = (key: string, label: ReactNode, control: ReactNode) => (
    <Field key={key} label={label} path={`config.${key}`} problem={problem}>
      {control}
    </Field>
  );
  const number = (
    key: string,
    value: number,
    change: (v: number) => void,
    opts: { min?: number; max?: number } = {},
  ) => (
    <InputNumber
      value={value}
      min={opts.min}
      max={opts.max}
      disabled={disabled}
      onChange={(v) => change(num(v, value))}
      data-testid={`config-${key}`}
    />
  );
  const select = <T extends string>(key: string, value: T, values: readonly T[], change: (v: T) => void) => (
    <Select
      value={value}
      disabled={disabled}
      options={values.map((v) => ({ value: v, label: t(`options.${v}`, v) }))}
      onChange={change}
      data-testid={`config-${key}`}
    />
  );
  const text = (key: string, value: string, max: number, change: (v: string) => void) => (
    <Input
      value={value}
      maxLength={max}
      disabled={disabled}
      onChange={(ev) => change(ev.target.value)}
      data-testid={`config-${key}`}
    />
  );
  switch (e.type) {
    case 'rect': {
      const c: Config<'rect'> = e.config;
      return field(
        'radius',
        t('config.radius', '圆角'),
        number('radius', c.radius, (radius) => setConfig({ radius }), {
          min: 0,
          max: SCREEN_LIMITS.radiusMax,
        }),
      );
    }
    case 'line': {
      const c: Config<'line'> = e.config;
      return (
        <>
          {field(
            'pipe',
            null,
            <Checkbox
              checked={c.pipe}
              disabled={disabled}
              onChange={(ev) => setConfig({ ...c, pipe: ev.target.checked })}
            >
              {t('config.pipe', '管道')}
            </Checkbox>,
          )}
          {field(
            'width',
            t('config.lineWidth', '线宽'),
            number('width', c.width, (width) => setConfig({ ...c, width }), {
              min: 1,
              max: SCREEN_LIMITS.lineWidthMax,
            }),
          )}
          {field(
            'flow',
            t('config.flow', '流动'),
            select('flow', c.flow, e.binding ? FLOW_MODES : FLOW_MODES.filter((m) => m !== 'value'), (flow) =>
              setConfig({ ...c, flow }),
            ),
          )}
        </>
      );
    }
    case 'tank':
    case 'gauge': {
      const c = e.config as Config<'gauge'> & Config<'tank'>;
      return (
        <>
          <RangeFields
            min={c.min}
            max={c.max}
            problem={problem}
            disabled={disabled}
            onChange={(range) => setConfig({ ...c, ...range })}
          />
          {e.type === 'tank' ? (
            field(
              'showValue',
              null,
              <Checkbox
                checked={e.config.showValue}
                disabled={disabled}
                onChange={(ev) => setConfig({ ...e.config, showValue: ev.target.checked })}
              >
                {t('config.showValue', '显示数值')}
              </Checkbox>,
            )
          ) : (
            <UnitFields
              unit={e.config.unit}
              decimals={e.config.decimals}
              problem={problem}
              disabled={disabled}
              onChange={(shown) => setConfig({ ...e.config, ...shown })}
            />
          )}
        </>
      );
    }
    case 'valve':
      return field(
        'orientation',
        t('config.orientation', '方向'),
        select('orientation', e.config.orientation, ORIENTATIONS, (orientation) =>
          setConfig({ orientation }),
        ),
      );
    case 'pump':
      return field(
        'shape',
        t('config.shape', '形状'),
        select('shape', e.config.shape, PUMP_SHAPES, (shape) => setConfig({ shape })),
      );
    case 'light': {
      const c: Config<'light'> = e.config;
      return (
        <div className="scr-grid2">
          {field(
            'onColor',
            t('config.onColor', '开时颜色'),
            <Colour
              value={c.onColor}
              disabled={disabled}
              onChange={(v) => setConfig({ ...c, onColor: v })}
            />,
          )}
          {field(
            'offColor',
            t('config.offColor', '关时颜色'),
            <Colour
              value={c.offColor}
              disabled={disabled}
              onChange={(v) => setConfig({ ...c, offColor: v })}
            />,
          )}
        </div>
      );
    }
    case 'text': {
      const c: Config<'text'> = e.config;
      return (
        <>
          {field(
            'text',
            t('config.text', '文字'),
            text('text', c.text, SCREEN_LIMITS.text, (v) => setConfig({ ...c, text: v })),
          )}
          <UnitFields
            unit={c.unit}
            decimals={c.decimals}
            problem={problem}
            disabled={disabled}
            onChange={(shown) => setConfig({ ...c, ...shown })}
          />
          {field(
            'align',
            t('config.align', '对齐'),
            select('align', c.align, SCREEN_TEXT_ALIGNS, (align) => setConfig({ ...c, align })),
          )}
        </>
      );
    }
    case 'image': {
      const c: Config<'image'> = e.config;
      return (
        <>
          {field(
            'url',
            t('config.url', '图片地址'),
            text('url', c.url, BOARD_LIMITS.url, (url) => setConfig({ ...c, url })),
          )}
          {field(
            'fit',
            t('config.fit', '填充方式'),
            select('fit', c.fit, SCREEN_IMAGE_FITS, (fit) => setConfig({ ...c, fit })),
          )}
        </>
      );
    }
    case 'switch': {
      const c: Config<'switch'> = e.config;
      const options = [
        { value: '', label: t('config.noCommand', '（不发送）') },
        ...(commands ?? []).map((name) => ({ value: name, label: name })),
      ];
      // a template names its commands freely; a device's screen chooses among the device's
      const command = (key: 'onCommand' | 'offCommand') =>
        commands === null ? (
          <Input
            value={c[key]}
            disabled={disabled}
            maxLength={32}
            placeholder={t('config.commandName', '指令名')}
            onChange={(ev) => setConfig({ ...c, [key]: ev.target.value.trim() })}
            data-testid={`config-${key}`}
          />
        ) : (
          <Select
            value={c[key]}
            disabled={disabled}
            options={options}
            onChange={(v) => setConfig({ ...c, [key]: v })}
            data-testid={`config-${key}`}
          />
        );
      return (
        <>
          {field(
            'label',
            t('config.label', '标签'),
            text('label', c.label, SCREEN_LIMITS.label, (label) => setConfig({ ...c, label })),
          )}
          {commands === null ? (
            <Typography.Paragraph type="secondary" data-testid="family-commands">
              {t(
                'config.familyCommands',
                '设备族模板的开关写指令名（如 pumpStart），每台设备在其流程图中把它对应到自己的指令。',
              )}
            </Typography.Paragraph>
          ) : commands.length === 0 ? (
            <Typography.Paragraph type="warning" data-testid="no-commands">
              {t('config.noCommands', '设备运行的配置中没有平台可下发的指令节点，开关暂不可用。')}
            </Typography.Paragraph>
          ) : null}
          {field('onCommand', t('config.onCommand', '开指令'), command('onCommand'))}
          {field('offCommand', t('config.offCommand', '关指令'), command('offCommand'))}
          {field(
            'confirm',
            t('config.confirm', '确认提示'),
            <Input.TextArea
              value={c.confirm}
              maxLength={SCREEN_LIMITS.confirm}
              autoSize
              disabled={disabled}
              onChange={(ev) => setConfig({ ...c, confirm: ev.target.value })}
            />,
          )}
        </>
      );
    }
    default:
      return null;
  }
}

export function ElementPanel({
  body,
  element: e,
  points,
  commands,
  problem,
  disabled,
  onBody,
  onElement,
  onPlace,
}: {
  body: ScreenBody;
  element: ScreenElement | null;
  points: ScreenPoint[];
  /** the device's commands; null: any name (a device-family template) */
  commands: string[] | null;
  problem: Problem | null;
  disabled: boolean;
  onBody: (change: Partial<ScreenBody>) => void;
  onElement: (change: (e: ScreenElement) => ScreenElement) => void;
  onPlace: (rect: Rect) => void;
}) {
  const { t } = useTranslation('screens');
  const own = e && problem?.elementId === e.id ? problem : null;
  return (
    <Form layout="vertical" size="small" className="scr-panel" data-testid="screen-panel" component="div">
      {!e ? (
        <ScreenSettings
          body={body}
          onBody={onBody}
          problem={problem?.elementId === null ? problem : null}
          disabled={disabled}
        />
      ) : (
        <>
          <Typography.Title level={5}>
            {t(`types.${e.type}`, e.type)} <Tag>{e.id}</Tag>
          </Typography.Title>
          <div className="scr-grid4">
            {(['x', 'y', 'w', 'h'] as const).map((k) => (
              <Field key={k} label={k} path={k} problem={own}>
                <InputNumber
                  value={e[k]}
                  disabled={disabled || e.locked}
                  onChange={(v) => onPlace({ x: e.x, y: e.y, w: e.w, h: e.h, [k]: num(v, e[k]) })}
                  data-testid={`geom-${k}`}
                />
              </Field>
            ))}
          </div>
          <Divider titlePlacement="start" plain>
            {t('panel.binding', '绑定数据点')}
          </Divider>
          <Field label={null} path="binding" problem={own}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={
                points.length
                  ? t('panel.unbound', '未绑定')
                  : t('panel.noPoints', '此设备没有可绑定的数值数据点')
              }
              value={e.binding ? pointKey(e.binding.itemId, e.binding.field) : undefined}
              disabled={disabled}
              options={points.map((p) => ({
                value: pointKey(p.itemId, p.field),
                label: `${p.itemName} · ${p.fieldName}${p.unit ? ` (${p.unit})` : ''}`,
              }))}
              onChange={(key?: string) => {
                const p = points.find((x) => pointKey(x.itemId, x.field) === key);
                onElement((x) => bindElement(x, p ? { itemId: p.itemId, field: p.field } : null));
              }}
              data-testid="binding"
            />
          </Field>
          {e.binding ? (
            <>
              <Divider titlePlacement="start" plain>
                {t('panel.rules', '阈值规则')}
              </Divider>
              <RulesEditor
                rules={e.rules}
                problem={own}
                disabled={disabled}
                onChange={(rules) => onElement((x) => ({ ...x, rules }))}
              />
            </>
          ) : null}
          <Divider titlePlacement="start" plain>
            {t('panel.settings', '设置')}
          </Divider>
          <TypeSettings
            e={e}
            commands={commands}
            problem={own}
            disabled={disabled}
            setConfig={(config) => onElement((x) => ({ ...x, config }) as ScreenElement)}
          />
          <Divider titlePlacement="start" plain>
            {t('panel.style', '样式')}
          </Divider>
          <div className="scr-grid2">
            {(['fill', 'stroke', 'color'] as const).map((k) => (
              <Field key={k} label={t(`style.${k}`, k)} path={`style.${k}`} problem={own}>
                <Colour
                  value={e.style[k]}
                  disabled={disabled}
                  onChange={(v) => onElement((x) => ({ ...x, style: { ...x.style, [k]: v } }))}
                />
              </Field>
            ))}
            <Field label={t('style.strokeWidth', '线宽')} path="style.strokeWidth" problem={own}>
              <InputNumber
                min={0}
                max={SCREEN_LIMITS.strokeWidthMax}
                value={e.style.strokeWidth}
                disabled={disabled}
                onChange={(v) => onElement((x) => ({ ...x, style: { ...x.style, strokeWidth: num(v, 2) } }))}
              />
            </Field>
            <Field label={t('style.fontSize', '字号')} path="style.fontSize" problem={own}>
              <InputNumber
                min={BOARD_LIMITS.fontSizeMin}
                max={BOARD_LIMITS.fontSizeMax}
                value={e.style.fontSize}
                disabled={disabled}
                onChange={(v) => onElement((x) => ({ ...x, style: { ...x.style, fontSize: num(v, 16) } }))}
              />
            </Field>
          </div>
        </>
      )}
    </Form>
  );
}
