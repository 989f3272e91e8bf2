/**
 * /alertdashboard: the alarm wall (cs_info). What is open now, by level (3, the most severe,
 * first): a large count per level and the open alarms newest first, each with how long it has
 * been open (ticking), acknowledged or not. It follows the alarm socket (./live.ts): every change
 * reads the open alarms again, and while the socket is down the wall says so and greys its
 * numbers instead of showing stale ones as if current. Optional sound on a new alarm, full screen.
 */
import {
  CheckCircleOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  SoundOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Spin, Switch, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatTime } from '../../../shared/time';
import { type AlarmRow, alarmKeys, useOpenAlarms, useOpenCounts } from '../api';
import { AckDialog } from '../components/AckDialog';
import { LEVEL_HEX, LEVELS, openFor } from '../levels';
import { useAlarmFeed } from '../live';
import { beep, rememberSound, soundWanted, unlockSound } from '../sound';
import '../wall.css';

const SHOWN = 100;
const LOG_PATH = '/cloudSurveillance/alertLog';

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

function useFullscreen(root: React.RefObject<HTMLElement | null>) {
  const [full, setFull] = useState(false);
  useEffect(() => {
    const changed = () => setFull(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', changed);
    return () => document.removeEventListener('fullscreenchange', changed);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void root.current?.requestFullscreen?.().catch(() => undefined);
  };
  return { full, toggle };
}

export default function AlertDashboardPage() {
  const { t } = useTranslation('alarms');
  const queryClient = useQueryClient();
  const root = useRef<HTMLDivElement>(null);
  const now = useNow();
  const { full, toggle } = useFullscreen(root);
  const [sound, setSound] = useState(soundWanted);
  const [beeps, setBeeps] = useState(0);
  const [acking, setAcking] = useState<number | null>(null);
  const soundOn = useRef(sound);
  soundOn.current = sound;

  const { connected, status } = useAlarmFeed({
    enabled: true,
    onAlarm: (m) => {
      if (m.change === 'fired' && soundOn.current) {
        beep(m.level);
        setBeeps((n) => n + 1);
      }
    },
  });
  const counts = useOpenCounts({ mine: false, silent: true });
  const list = useOpenAlarms({ mine: false, pageSize: SHOWN, silent: true });
  const failed = counts.isError || list.isError;
  const stale = !connected || failed;
  const loading = counts.isLoading || list.isLoading;
  const rows = list.data?.list ?? [];
  const total = list.data?.total ?? 0;

  const toggleSound = (on: boolean) => {
    // the click that turns it on is what lets the browser play sound at all
    if (on) unlockSound();
    setSound(on);
    rememberSound(on);
  };

  return (
    <div
      ref={root}
      className={`alarm-wall${stale ? ' is-stale' : ''}`}
      data-testid="alert-wall"
      data-live={connected ? 'yes' : 'no'}
    >
      <header className="alarm-wall-head">
        <h1 className="alarm-wall-title">{t('wall.title')}</h1>
        <div className="alarm-wall-clock" data-testid="wall-clock">
          {formatTime(new Date(now).toISOString(), 'yyyy-MM-dd HH:mm:ss')}
        </div>
        <div className="alarm-wall-tools">
          <span
            className={`alarm-wall-conn ${connected ? 'is-on' : 'is-off'}`}
            data-testid="wall-connection"
            data-status={status}
          >
            <span className="alarm-wall-dot" />
            {connected ? t('wall.live') : t('wall.lost')}
          </span>
          <span className="alarm-wall-sound">
            <SoundOutlined />
            <span>{t('wall.sound')}</span>
            <Switch
              size="small"
              checked={sound}
              onChange={toggleSound}
              aria-label={t('wall.sound')}
              data-testid="wall-sound"
              data-beeps={beeps}
            />
          </span>
          <Tooltip title={full ? t('wall.exitFullscreen') : t('wall.fullscreen')}>
            <Button
              ghost
              icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
              onClick={toggle}
              aria-label={full ? t('wall.exitFullscreen') : t('wall.fullscreen')}
              data-testid="wall-fullscreen"
            />
          </Tooltip>
          <Link to={LOG_PATH} className="alarm-wall-link">
            <UnorderedListOutlined /> <span>{t('wall.log')}</span>
          </Link>
        </div>
      </header>

      {stale ? (
        <div className="alarm-wall-lost" role="alert" data-testid="wall-lost">
          {t('wall.lostText')}
        </div>
      ) : null}

      <section className="alarm-wall-levels">
        {LEVELS.map((level) => (
          <div
            key={level}
            className="alarm-wall-level"
            style={{ '--level': LEVEL_HEX[level] } as React.CSSProperties}
            data-testid={`wall-count-${level}`}
          >
            <div className="alarm-wall-level-name">{t('log.level', { level })}</div>
            <div className="alarm-wall-level-count">
              {counts.data ? counts.data[String(level) as '1'] : '–'}
            </div>
          </div>
        ))}
      </section>

      <section className="alarm-wall-list" aria-label={t('wall.listTitle')}>
        <div className="alarm-wall-list-head">
          <span>{t('wall.listTitle')}</span>
          {total > rows.length ? (
            <span className="alarm-wall-more">{t('wall.more', { shown: rows.length, total })}</span>
          ) : null}
        </div>
        {loading ? (
          <div className="alarm-wall-empty">
            <Spin size="large" />
          </div>
        ) : rows.length === 0 ? (
          <div className="alarm-wall-empty" data-testid="wall-empty">
            <Empty
              image={<CheckCircleOutlined className="alarm-wall-ok" />}
              description={<span>{t('wall.none')}</span>}
            />
          </div>
        ) : (
          <ol className="alarm-wall-rows">
            {rows.map((row) => (
              <WallRow key={row.id} row={row} now={now} onAck={() => setAcking(row.id)} />
            ))}
          </ol>
        )}
      </section>

      <AckDialog
        alarmId={acking}
        onClose={() => setAcking(null)}
        onDone={() => void queryClient.invalidateQueries({ queryKey: alarmKeys.all })}
      />
    </div>
  );
}

function WallRow(props: { row: AlarmRow; now: number; onAck: () => void }) {
  const { t } = useTranslation('alarms');
  const { row } = props;
  const since = openFor(row.firedAt, props.now);
  const acked = row.status === 'acknowledged';
  const source = [row.itemName, row.deviceName].filter(Boolean).join(' · ');
  return (
    <li
      className={`alarm-wall-row${acked ? ' is-acked' : ''}`}
      style={{ '--level': LEVEL_HEX[row.level] } as React.CSSProperties}
      data-testid={`wall-alarm-${row.id}`}
    >
      <span className="alarm-wall-badge">{t('log.level', { level: row.level })}</span>
      <span className="alarm-wall-what">
        <span className="alarm-wall-name">{row.name}</span>
        <span className="alarm-wall-source">{source || t('wall.noSource')}</span>
      </span>
      <span className="alarm-wall-value" title={t('fields.value')}>
        {row.value ?? '–'}
      </span>
      <span className="alarm-wall-since" title={formatTime(row.firedAt, 'yyyy-MM-dd HH:mm:ss')}>
        <span className="alarm-wall-since-label">{t('wall.openFor')}</span>
        {since.days > 0 ? t('wall.days', { days: since.days }) : ''}
        {since.clock}
      </span>
      <span className="alarm-wall-state">
        {acked ? (
          <span className="alarm-wall-acked" title={row.ackComment ?? ''}>
            <CheckCircleOutlined /> {t('wall.ackedBy', { name: row.acknowledgedBy ?? '' })}
          </span>
        ) : (
          <Button size="small" type="primary" onClick={props.onAck}>
            {t('log.acknowledge')}
          </Button>
        )}
      </span>
    </li>
  );
}
