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
    case 'passthrough': {
      // the serial debug assistant: a session opened, closed, or refused
      const port = typeof data.port === 'number' ? data.port : '?';
      if (data.action === 'open' && row.result === 'failed') {
        const reason = t(`logText.reason_${String(data.reason)}`, String(data.reason ?? ''));
        return {
          text: t('logText.passthroughRefused', '打开端口 {{port}} 的串口调试被拒绝：{{reason}}', {
            port,
            reason,
          }),
          extra: null,
        };
      }
      if (data.action === 'open')
        return { text: t('logText.passthroughOpen', '打开端口 {{port}} 的串口调试', { port }), extra: null };
      if (data.action === 'close')
        return {
          text: t(
            'logText.passthroughClose',
            '关闭端口 {{port}} 的串口调试（发送 {{sent}} 次，收到 {{received}} 次）',
            {
              port,
              sent: Number(data.sent ?? 0),
              received: Number(data.received ?? 0),
            },
          ),
          extra: null,
        };
      break;
    }
    case 'command': {
      const name = typeof data.command === 'string' ? data.command : null;
      if (!name) break;
      const parts = [t(`command.${name}`, name)];
      if (typeof data.reason === 'string') parts.push(t(`logText.reason_${data.reason}`, data.reason));
      if (typeof data.firmware === 'string') parts.push(data.firmware);
      return { text: parts.join(' · '), extra: null };
    }
    default:
      break;
  }
  return { text: row.detail || '—', extra: json };
}
