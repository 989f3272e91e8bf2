/**
 * The property panel of the designer: the selected widget's settings by type, or the board's
 * (canvas size, scale, background) when nothing is selected. Every change is one edit (undo).
 */
import {
  ALARM_WIDGET_LEVELS,
  BOARD_LIMITS,
  BOARD_SCALES,
  type BoardBody,
  CLOCK_FORMATS,
  IMAGE_FITS,
  NUMERIC_FIELD_TYPES,
  TEXT_ALIGNS,
  type Widget,
} from '@platform/domain';
import { Form, Input, InputNumber, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type PickerChart, useBoardCharts, useBoardItems } from '../api';

type Change = (config: Record<string, unknown>) => void;

function ItemSelect({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (itemId: number | null) => void;
}) {
  const { t } = useTranslation('boards');
  const items = useBoardItems();
  const options = (items.data ?? []).map((i) => ({ value: i.id, label: i.name }));
  return (
    <Select
      showSearch
      allowClear
      optionFilterProp="label"
      value={value ?? undefined}
      onChange={(v) => onChange(v ?? null)}
      options={options}
      placeholder={t('props.item', '数据项')}
      loading={items.isLoading}
      data-testid="prop-item"
    />
  );
}

function FieldSelect({
  itemId,
  value,
  onChange,
}: {
  itemId: number | null;
  value: string | null;
  onChange: (f: string | null) => void;
}) {
  const { t } = useTranslation('boards');
  const items = useBoardItems();
  const item = items.data?.find((i) => i.id === itemId);
  const options = (item?.fields ?? [])
    .filter((f) => (NUMERIC_FIELD_TYPES as readonly number[]).includes(f.type) || f.type === 5)
    .map((f) => ({ value: f.key, label: f.unit ? `${f.name} (${f.unit})` : f.name }));
  return (
    <Select
      value={value ?? undefined}
      onChange={(v) => onChange(v ?? null)}
      options={options}
      disabled={itemId == null}
      placeholder={t('props.field', '字段')}
      data-testid="prop-field"
    />
  );
}

function WidgetProps({ widget, change }: { widget: Widget; change: Change }) {
  const { t } = useTranslation('boards');
  const c = widget.config as unknown as Record<string, unknown>;
  const text = (key: string, label: string, max: number = BOARD_LIMITS.title, area = false) => (
    <Form.Item label={label}>
      {area ? (
        <Input.TextArea
          value={String(c[key] ?? '')}
          maxLength={max}
          autoSize={{ minRows: 2, maxRows: 6 }}
          onChange={(e) => change({ [key]: e.target.value })}
          data-testid={`prop-${key}`}
        />
      ) : (
        <Input
          value={String(c[key] ?? '')}
          maxLength={max}
          onChange={(e) => change({ [key]: e.target.value })}
          data-testid={`prop-${key}`}
        />
      )}
    </Form.Item>
  );
  const num = (key: string, label: string, min: number, max: number) => (
    <Form.Item label={label}>
      <InputNumber
        value={Number(c[key])}
        min={min}
        max={max}
        precision={0}
        onChange={(v) => v != null && change({ [key]: v })}
        data-testid={`prop-${key}`}
      />
    </Form.Item>
  );
  const pick = (key: string, label: string, values: readonly string[]) => (
    <Form.Item label={label}>
      <Select
        value={String(c[key])}
        onChange={(v) => change({ [key]: v })}
        options={values.map((v) => ({ value: v, label: t(`props.values.${v}`, v) }))}
      />
    </Form.Item>
  );
  const fontSize = num(
    'fontSize',
    t('props.fontSize', '字号'),
    BOARD_LIMITS.fontSizeMin,
    BOARD_LIMITS.fontSizeMax,
  );
  const color = text('color', t('props.color', '颜色（如 #1677ff）'), 40);
  switch (widget.type) {
    case 'number':
      return (
        <>
          {text('title', t('props.title', '标题'))}
          <Form.Item label={t('props.item', '数据项')}>
            <ItemSelect value={widget.config.itemId} onChange={(itemId) => change({ itemId, field: null })} />
          </Form.Item>
          <Form.Item label={t('props.field', '字段')}>
            <FieldSelect
              itemId={widget.config.itemId}
              value={widget.config.field}
              onChange={(field) => change({ field })}
            />
          </Form.Item>
          {num(
            'staleMinutes',
            t('props.staleMinutes', '超过多少分钟未更新显示为过期'),
            1,
            BOARD_LIMITS.staleMinutesMax,
          )}
          {fontSize}
        </>
      );
    case 'table':
      return (
        <>
          {text('title', t('props.title', '标题'))}
          <Form.Item label={t('props.item', '数据项')}>
            <ItemSelect value={widget.config.itemId} onChange={(itemId) => change({ itemId })} />
          </Form.Item>
          {num('rows', t('props.rows', '行数'), 1, BOARD_LIMITS.tableRows)}
          {num(
            'staleMinutes',
            t('props.staleMinutes', '超过多少分钟未更新显示为过期'),
            1,
            BOARD_LIMITS.staleMinutesMax,
          )}
        </>
      );
    case 'text':
      return (
        <>
          {text('text', t('props.text', '文字'), BOARD_LIMITS.text, true)}
          {fontSize}
          {color}
          {pick('align', t('props.align', '对齐'), TEXT_ALIGNS)}
        </>
      );
    case 'marquee':
      return (
        <>
          {text('text', t('props.text', '文字'), BOARD_LIMITS.text, true)}
          {fontSize}
          {color}
          {num('seconds', t('props.seconds', '滚动一遍的秒数'), 2, 600)}
        </>
      );
    case 'image':
      return (
        <>
          {text('url', t('props.url', '图片地址（https://… 或 /…）'), BOARD_LIMITS.url)}
          {pick('fit', t('props.fit', '填充方式'), IMAGE_FITS)}
        </>
      );
    case 'clock':
      return (
        <>
          {pick('format', t('props.format', '格式'), CLOCK_FORMATS)}
          {fontSize}
        </>
      );
    case 'deviceStatus':
      return text('title', t('props.title', '标题'));
    case 'chart':
      return (
        <Form.Item label={t('props.chart', '图表')}>
          <ChartSelect
            value={widget.config.chartId}
            onChange={(chart) => change({ chartId: chart?.id ?? null, itemId: chart?.itemId ?? null })}
          />
        </Form.Item>
      );
    case 'alarmList':
      return (
        <>
          {text('title', t('props.title', '标题'))}
          <Form.Item label={t('props.alarmLevels', '告警级别（不选为全部）')}>
            <Select
              mode="multiple"
              allowClear
              value={widget.config.levels}
              onChange={(levels: number[]) => change({ levels })}
              options={ALARM_WIDGET_LEVELS.map((l) => ({
                value: l,
                label: t('widget.level', '{{n}} 级', { n: l }),
              }))}
              placeholder={t('props.allLevels', '全部级别')}
              data-testid="prop-levels"
            />
          </Form.Item>
          <Form.Item label={t('props.alarmItems', '数据项（不选为全部）')}>
            <ItemsSelect value={widget.config.itemIds} onChange={(itemIds) => change({ itemIds })} />
          </Form.Item>
          {num('rows', t('props.rows', '行数'), 1, BOARD_LIMITS.alarmRows)}
        </>
      );
  }
}

function ChartSelect({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (chart: PickerChart | null) => void;
}) {
  const { t } = useTranslation('boards');
  const list = useBoardCharts();
  const options = (list.data ?? []).map((c) => ({
    value: c.id,
    label: `${c.itemName} · ${c.name}`,
  }));
  return (
    <Select
      showSearch
      allowClear
      optionFilterProp="label"
      value={value ?? undefined}
      onChange={(id) => onChange(list.data?.find((c) => c.id === id) ?? null)}
      options={options}
      loading={list.isLoading}
      placeholder={t('props.chartPick', '选择数据仓中的图表')}
      notFoundContent={list.isLoading ? undefined : t('props.noCharts', '没有可查看的图表')}
      data-testid="prop-chart"
    />
  );
}

function ItemsSelect({ value, onChange }: { value: number[]; onChange: (ids: number[]) => void }) {
  const { t } = useTranslation('boards');
  const items = useBoardItems();
  return (
    <Select
      mode="multiple"
      allowClear
      optionFilterProp="label"
      maxCount={BOARD_LIMITS.alarmItems}
      value={value}
      onChange={onChange}
      options={(items.data ?? []).map((i) => ({ value: i.id, label: i.name }))}
      loading={items.isLoading}
      placeholder={t('props.allItems', '全部数据项')}
      data-testid="prop-items"
    />
  );
}

export function PropertyPanel({
  body,
  widget,
  onWidget,
  onBoard,
}: {
  body: BoardBody;
  widget: Widget | null;
  onWidget: Change;
  onBoard: (change: Partial<BoardBody>) => void;
}) {
  const { t } = useTranslation('boards');
  return (
    <Form layout="vertical" size="small" className="board-props" data-testid="property-panel">
      {widget ? (
        <>
          <Typography.Title level={5}>{t(`types.${widget.type}`, widget.type)}</Typography.Title>
          <Typography.Text type="secondary" className="board-props-rect">
            {`x ${widget.x} · y ${widget.y} · ${widget.w}×${widget.h}`}
          </Typography.Text>
          <WidgetProps widget={widget} change={onWidget} />
        </>
      ) : (
        <>
          <Typography.Title level={5}>{t('props.board', '看板设置')}</Typography.Title>
          {body.mode === 'canvas' ? (
            <>
              <Form.Item label={t('props.width', '画布宽度')}>
                <InputNumber
                  value={body.width}
                  min={BOARD_LIMITS.canvasMin}
                  max={BOARD_LIMITS.canvasWidthMax}
                  precision={0}
                  onChange={(v) => v && onBoard({ width: v })}
                />
              </Form.Item>
              <Form.Item label={t('props.height', '画布高度')}>
                <InputNumber
                  value={body.height}
                  min={BOARD_LIMITS.canvasMin}
                  max={BOARD_LIMITS.canvasHeightMax}
                  precision={0}
                  onChange={(v) => v && onBoard({ height: v })}
                />
              </Form.Item>
              <Form.Item label={t('props.scale', '显示时缩放')}>
                <Select
                  value={body.scale}
                  onChange={(scale) => onBoard({ scale })}
                  options={BOARD_SCALES.map((s) => ({ value: s, label: t(`props.values.${s}`, s) }))}
                />
              </Form.Item>
            </>
          ) : (
            <Typography.Paragraph type="secondary">
              {t('props.gridHint', '网格模式：拖动和缩放组件，看板随屏幕宽度自适应。')}
            </Typography.Paragraph>
          )}
          <Form.Item label={t('props.background', '背景色（如 #0b1733）')}>
            <Input
              value={body.background}
              maxLength={40}
              onChange={(e) => onBoard({ background: e.target.value })}
            />
          </Form.Item>
        </>
      )}
    </Form>
  );
}
