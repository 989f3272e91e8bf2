/**
 * A carousel played (dashboardMarquee, bigScreen): each board for its seconds with a countdown
 * to the next, full screen on request. Built to run for days: one timer for the countdown, the
 * next board loaded before it is shown, a board that fails to load skipped and tried again
 * after PLAY_RETRY_MS, the carousel itself read again when it fails (lost connection); state
 * never grows (at most one failure time per board).
 */
import { FullscreenOutlined } from '@ant-design/icons';
import { countdown, nextPlayIndex, type PlayEntry } from '@platform/domain';
import { Button, Result, Spin } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { get } from '../../../app/http/client';
import { type BoardData, type BoardView, boardApi, type PlayRow } from '../api';
import { BoardSurface } from '../components/BoardSurface';
import { BoardDataProvider } from '../components/data';
import '../boards.css';

const RETRY_PLAY_MS = 10_000;

interface Shown {
  index: number;
  board: BoardView;
  data: BoardData;
  startedAt: number;
}

export default function PlayPage() {
  const { t } = useTranslation('boards');
  const id = Number(useParams().boardPlayId);
  const [play, setPlay] = useState<PlayRow | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [waiting, setWaiting] = useState(false);
  const failedAt = useRef(new Map<number, number>());
  const root = useRef<HTMLDivElement>(null);
  const busy = useRef(false);

  // the carousel: read again until it answers (a lost connection heals by itself)
  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    const load = () =>
      get<PlayRow>('/smartdata/boardplay/get', { id }, { silent: true }).then(
        (row) => !stopped && setPlay(row),
        () => {
          if (!stopped) timer = window.setTimeout(load, RETRY_PLAY_MS);
        },
      );
    load();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [id]);

  const entries: PlayEntry[] = play?.entries ?? [];

  /** shows the next board that loads, starting after `from` */
  const advance = useCallback(
    async (from: number) => {
      if (busy.current || entries.length === 0) return;
      busy.current = true;
      try {
        let index = from;
        for (let tries = 0; tries < entries.length; tries++) {
          index = nextPlayIndex(entries, index, failedAt.current, Date.now());
          const entry = entries[index]!;
          try {
            const result = await boardApi.playBoard(id, entry.boardId);
            failedAt.current.delete(entry.boardId);
            setShown({ index, board: result.board, data: result.data, startedAt: Date.now() });
            setWaiting(false);
            return;
          } catch {
            failedAt.current.set(entry.boardId, Date.now());
          }
        }
        // nothing loaded: keep what is shown (or say so) and try again soon
        setWaiting(true);
        setShown((s) => (s ? { ...s, startedAt: Date.now() } : s));
      } finally {
        busy.current = false;
      }
    },
    [entries, id],
  );

  useEffect(() => {
    if (play) void advance(-1);
  }, [play, advance]);

  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);

  const seconds = shown ? (entries[shown.index]?.seconds ?? 10) : 10;
  const left = shown ? countdown(shown.startedAt, seconds, now) : seconds;
  useEffect(() => {
    if (shown && left === 0) void advance(shown.index);
    else if (!shown && waiting && play) {
      const timer = window.setTimeout(() => void advance(-1), RETRY_PLAY_MS);
      return () => window.clearTimeout(timer);
    }
  }, [left, shown, advance, waiting, play]);

  const load = useCallback(
    () => boardApi.playBoard(id, shown?.board.id ?? 0).then((r) => r.data),
    [id, shown?.board.id],
  );

  if (!play) return <Spin style={{ margin: 48 }} data-testid="play-loading" />;
  if (entries.length === 0) return <Result status="info" title={t('play.empty', '此轮播没有看板')} />;
  return (
    <div ref={root} className="board-play" data-testid="board-play">
      <div className="board-play-bar">
        <span className="board-play-name" data-testid="play-board-name">
          {shown?.board.name ?? ''}
        </span>
        <span className="board-play-count" data-testid="play-countdown">
          {t('play.next', '{{n}} 秒后切换', { n: left })} · {shown ? shown.index + 1 : 0}/{entries.length}
        </span>
        <Button
          size="small"
          ghost
          icon={<FullscreenOutlined />}
          onClick={() => root.current?.requestFullscreen?.().catch(() => undefined)}
          data-testid="play-fullscreen"
        >
          {t('show.fullscreen', '全屏')}
        </Button>
      </div>
      <div className="board-play-body">
        {shown ? (
          <BoardDataProvider
            key={`${shown.board.id}-${shown.startedAt}`}
            body={shown.board.body}
            initial={shown.data}
            load={load}
          >
            <BoardSurface body={shown.board.body} fullHeight />
          </BoardDataProvider>
        ) : waiting ? (
          <Result status="warning" title={t('play.retrying', '看板暂时无法加载，稍后自动重试')} />
        ) : (
          <Spin style={{ margin: 48 }} />
        )}
      </div>
    </div>
  );
}
