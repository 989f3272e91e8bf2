/**
 * The alarm-list widget: the open alarms (active and acknowledged) of the company the viewer
 * may see, optionally of some items and levels, highest level first then newest; read again
 * whenever the alarm socket (`/cloudSurveillance/alarm/live`) tells of a change, and after a
 * reconnect. The alarm log's code cs_info is needed: without it the widget says so.
 */
import type { Widget } from '@platform/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { get } from '../../../app/http/client';
import { useLiveSocket } from '../../../app/live';
import { useSession } from '../../../app/store/session';
import type { Page } from '../../../shared/paging';
import { formatTime } from '../../../shared/time';
import type { AlarmRow } from '../../alarms/api';

const LEVEL_CLASS: Record<number, string> = { 1: 'l1', 2: 'l2', 3: 'l3' };
const KEY = ['boards', 'alarms'] as const;

export default function AlarmListWidget({ widget }: { widget: Extract<Widget, { type: 'alarmList' }> }) {
  const { t } = useTranslation('boards');
  const { user } = useSession();
  const allowed = user?.menuCode.includes('cs_info') === true;
  const client = useQueryClient();
  const c = widget.config;
  const open = useQuery({
    queryKey: KEY,
    queryFn: () =>
      get<Page<AlarmRow>>(
        '/cloudSurveillance/alarm/list',
        { status: 'open', pageNum: 1, pageSize: 100, sortField: 'firedAt', sortOrder: 'desc' },
        { silent: true },
      ),
    enabled: allowed,
  });
  const seenReady = useRef(false);
  const { status } = useLiveSocket('/cloudSurveillance/alarm/live', {
    enabled: allowed,
    onOpen: (send) => send({ type: 'ping' }),
    readyWhen: (m) => m.type === 'ready',
    onMessage: (m) => {
      if (m.type === 'ready') {
        if (seenReady.current) void client.invalidateQueries({ queryKey: KEY });
        seenReady.current = true;
      } else if (m.type === 'alarm') void client.invalidateQueries({ queryKey: KEY });
    },
  });

  const title = c.title || t('widget.alarms', '当前告警');
  let content: React.ReactNode;
  if (!allowed) content = <div className="bw-empty">{t('widget.alarmsForbidden', '无权查看告警')}</div>;
  else if (open.isLoading) content = <div className="bw-empty">{t('widget.loading', '加载中…')}</div>;
  else if (open.error)
    content = <div className="bw-empty">{t('widget.alarmsFailed', '告警读取失败，稍后重试')}</div>;
  else {
    const rows = (open.data?.list ?? [])
      .filter((a) => c.levels.length === 0 || c.levels.includes(a.level))
      .filter((a) => c.itemIds.length === 0 || (a.itemId != null && c.itemIds.includes(a.itemId)))
      .sort((a, b) => b.level - a.level || b.firedAt.localeCompare(a.firedAt))
      .slice(0, c.rows);
    content =
      rows.length === 0 ? (
        <div className="bw-empty bw-alarms-none" data-testid="widget-alarms-empty">
          {t('widget.noAlarms', '暂无活动告警')}
        </div>
      ) : (
        <ul>
          {rows.map((a) => (
            <li key={a.id} className={`bw-alarm ${LEVEL_CLASS[a.level] ?? ''}`} data-testid="widget-alarm">
              <span className="bw-alarm-level">{t('widget.level', '{{n}} 级', { n: a.level })}</span>
              <span className="bw-alarm-name">
                {a.name}
                {a.itemName ? ` · ${a.itemName}` : ''}
                {a.value != null ? ` = ${a.value}` : ''}
              </span>
              <span className="bw-alarm-time">{formatTime(a.firedAt)}</span>
            </li>
          ))}
        </ul>
      );
  }
  return (
    <div className="bw-alarms" data-live={allowed ? status : 'off'}>
      <div className="bw-title">{title}</div>
      {content}
    </div>
  );
}
