/**
 * An operation log row in the reader's language. The server stores a short English detail
 * and the facts in `data`; the shapes the device pages write (bind, unbind, edit, the gateway's
 * events) are told from `data`, the others (configuration, upgrade, command, passthrough,
 * written by their own features) keep the server's detail and show their data as JSON.
 */
import type { TFunction } from 'i18next';
import type { LogRow } from './api';

const EDITED = ['name', 'address', 'picture'] as const;

export interface LogText {
  /** what happened */
  text: string;
  /** the values behind it, when they help */
  extra: string | null;
}

export function describeLog(row: LogRow, t: TFunction<'devices'>): LogText {
  const data = row.data ?? {};
  const json = Object.keys(data).length ? JSON.stringify(data) : null;
  switch (row.kind) {
    case 'bind':
      return { text: t('logText.bind', '在网关上按下绑定按钮确认'), extra: null };
    case 'unbind':
      return { text: t('logText.unbind', '解绑，设备移出数据舱'), extra: null };
    case 'edit': {
      // `data.changed` names the fields; rows written before it said so in `detail`
      const named = Array.isArray(data.changed) ? data.changed.map(String) : row.detail.split(/,\s*/);
      const fields = named.filter((f): f is (typeof EDITED)[number] =>
        (EDITED as readonly string[]).includes(f),
      );
      if (fields.length === 0) break;
      const names = fields.map((f) => t(`logField.${f}`, f)).join(t('logText.sep', '、'));
      const values = fields
        .filter((f) => typeof data[f] === 'string')
        .map((f) => {
          const value = String(data[f]);
          const shown = f === 'picture' ? t(`preset.${value.replace(/^preset:/, '')}`, value) : value;
          return `${t(`logField.${f}`, f)}: ${shown || '—'}`;
        });
      return {
        text: t('logText.edit', '修改了{{fields}}', { fields: names }),
        extra: values.join('; ') || null,
      };
    }
    case 'event': {
      const event = typeof data.event === 'string' ? data.event : null;
      if (!event) break;
      // a known event is named in the reader's language; the gateway's own words follow
      const parts = [data.known === true ? t(`logEvent.${event}`, event) : event];
      if (typeof data.port === 'number') parts.push(t('ports.port', '端口 {{n}}', { n: data.port }));
      const words = typeof data.detail === 'string' ? data.detail : row.detail;
      if (words && !words.startsWith(event)) parts.push(words);
      return { text: parts.join(' · '), extra: null };
    }
    default:
      break;
  }
  return { text: row.detail || '—', extra: json };
}
