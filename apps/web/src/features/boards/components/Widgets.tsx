/**
 * The widgets as a board shows them (designer and display alike). Every widget that shows data
 * says when it was last updated and greys when that is older than its stale minutes; none is
 * ever blank: without data it says so.
 */
import { isStale, type Widget } from '@platform/domain';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/time';
import { useBoardData } from './data';

function Updated({ ts, stale }: { ts: string | null; stale: boolean }) {
  const { t } = useTranslation('boards');
  return (
    <div className={`bw-updated${stale ? ' bw-stale-text' : ''}`} data-testid="widget-updated">
      {ts ? t('widget.updated', '更新于 {{time}}', { time: formatTime(ts) }) : t('widget.noData', '暂无数据')}
      {ts && stale ? ` · ${t('widget.stale', '数据已过期')}` : ''}
    </div>
  );
}

function Empty({ text }: { text: string }) {
  return <div className="bw-empty">{text}</div>;
}

function formatNumber(value: unknown, decimals?: number): string {
  if (typeof value === 'number') return decimals != null ? value.toFixed(decimals) : String(value);
  if (value == null || value === '') return '—';
  return String(value);
}

function NumberCard({ widget }: { widget: Extract<Widget, { type: 'number' }> }) {
  const { t } = useTranslation('boards');
  const { items, missing, now, loaded } = useBoardData();
  const c = widget.config;
  if (c.itemId == null || c.field == null)
    return <Empty text={t('widget.pickItem', '请在属性面板中选择数据项和字段')} />;
  const item = items.get(c.itemId);
  if (!item) {
    if (missing.has(c.itemId)) return <Empty text={t('widget.itemHidden', '数据项不存在或无权查看')} />;
    return <Empty text={loaded ? t('widget.noData', '暂无数据') : t('widget.loading', '加载中…')} />;
  }
  const field = item.fields.find((f) => f.key === c.field);
  const record = item.records.find((r) => r.values[c.field!] != null) ?? null;
  const ts = record?.ts ?? null;
  const stale = isStale(ts ? Date.parse(ts) : null, now, c.staleMinutes);
  return (
    <div className={`bw-number${stale ? ' bw-stale' : ''}`}>
      <div className="bw-title">{c.title || `${item.name} · ${field?.name ?? c.field}`}</div>
      <div className="bw-value" style={{ fontSize: c.fontSize }} data-testid="widget-number-value">
        {formatNumber(record?.values[c.field], field?.decimals)}
        {field?.unit ? <span className="bw-unit">{field.unit}</span> : null}
      </div>
      <Updated ts={ts} stale={stale} />
    </div>
  );
}

function TableWidget({ widget }: { widget: Extract<Widget, { type: 'table' }> }) {
  const { t } = useTranslation('boards');
  const { items, missing, now, loaded } = useBoardData();
  const c = widget.config;
  if (c.itemId == null) return <Empty text={t('widget.pickItem', '请在属性面板中选择数据项和字段')} />;
  const item = items.get(c.itemId);
  if (!item)
    return (
      <Empty
        text={
          missing.has(c.itemId)
            ? t('widget.itemHidden', '数据项不存在或无权查看')
            : loaded
              ? t('widget.noData', '暂无数据')
              : t('widget.loading', '加载中…')
        }
      />
    );
  const rows = item.records.slice(0, c.rows);
  const ts = rows[0]?.ts ?? null;
  const stale = isStale(ts ? Date.parse(ts) : null, now, c.staleMinutes);
  return (
    <div className={`bw-table${stale ? ' bw-stale' : ''}`}>
      <div className="bw-title">{c.title || item.name}</div>
      <div className="bw-table-scroll">
        <table>
          <thead>
            <tr>
              <th>{t('widget.time', '时间')}</th>
              {item.fields.map((f) => (
                <th key={f.key}>{f.unit ? `${f.name} (${f.unit})` : f.name}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{formatTime(r.ts)}</td>
                {item.fields.map((f) => (
                  <td key={f.key}>{formatNumber(r.values[f.key], f.decimals)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 ? <Empty text={t('widget.noData', '暂无数据')} /> : null}
      </div>
      <Updated ts={ts} stale={stale} />
    </div>
  );
}

function DeviceStatus({ widget }: { widget: Extract<Widget, { type: 'deviceStatus' }> }) {
  const { t } = useTranslation('boards');
  const { devices, loaded } = useBoardData();
  const list = devices ?? [];
  const online = list.filter((d) => d.online).length;
  return (
    <div className="bw-devices">
      <div className="bw-title">{widget.config.title || t('widget.devices', '设备状态')}</div>
      {!loaded ? (
        <Empty text={t('widget.loading', '加载中…')} />
      ) : list.length === 0 ? (
        <Empty text={t('widget.noDevices', '暂无设备')} />
      ) : (
        <>
          <div className="bw-devices-sum">
            {t('widget.online', '在线 {{n}}', { n: online })} ·{' '}
            {t('widget.offline', '离线 {{n}}', { n: list.length - online })}
          </div>
          <ul>
            {list.map((d) => (
              <li key={d.id} className={d.online ? 'on' : 'off'}>
                <span className="dot" />
                {d.name}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function Clock({ widget }: { widget: Extract<Widget, { type: 'clock' }> }) {
  const { now } = useBoardData();
  const format =
    widget.config.format === 'date'
      ? 'yyyy-MM-dd'
      : widget.config.format === 'time'
        ? 'HH:mm:ss'
        : 'yyyy-MM-dd HH:mm:ss';
  return (
    <div className="bw-clock" style={{ fontSize: widget.config.fontSize }}>
      {formatTime(now, format as never)}
    </div>
  );
}

const ChartEmbed = lazy(() => import('./ChartEmbed'));
const AlarmListWidget = lazy(() => import('./AlarmListWidget'));

export function WidgetBody({ widget }: { widget: Widget }) {
  const { t } = useTranslation('boards');
  switch (widget.type) {
    case 'number':
      return <NumberCard widget={widget} />;
    case 'table':
      return <TableWidget widget={widget} />;
    case 'deviceStatus':
      return <DeviceStatus widget={widget} />;
    case 'clock':
      return <Clock widget={widget} />;
    case 'text':
      return (
        <div
          className="bw-text"
          style={{
            fontSize: widget.config.fontSize,
            color: widget.config.color || undefined,
            textAlign: widget.config.align,
          }}
        >
          {widget.config.text || (
            <span className="bw-placeholder">{t('widget.textEmpty', '双击属性面板输入文字')}</span>
          )}
        </div>
      );
    case 'marquee':
      return (
        <div
          className="bw-marquee"
          style={{ fontSize: widget.config.fontSize, color: widget.config.color || undefined }}
        >
          <span style={{ animationDuration: `${widget.config.seconds}s` }}>
            {widget.config.text || t('widget.marqueeEmpty', '滚动文字')}
          </span>
        </div>
      );
    case 'image':
      return widget.config.url ? (
        <img className="bw-image" src={widget.config.url} alt="" style={{ objectFit: widget.config.fit }} />
      ) : (
        <Empty text={t('widget.imageEmpty', '请在属性面板中填写图片地址')} />
      );
    case 'alarmList':
      return (
        <Suspense fallback={<Empty text={t('widget.loading', '加载中…')} />}>
          <AlarmListWidget widget={widget} />
        </Suspense>
      );
    case 'chart':
      return (
        <Suspense fallback={<Empty text={t('widget.loading', '加载中…')} />}>
          <ChartEmbed chartId={widget.config.chartId} itemId={widget.config.itemId} />
        </Suspense>
      );
  }
}
