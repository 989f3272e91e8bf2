/**
 * A board shown (currentShowDashboard in the layout, showDashboard full screen): live values,
 * each widget with its last update, a full-screen button (Fullscreen API).
 */
import { EditOutlined, FullscreenOutlined } from '@ant-design/icons';
import { Button, Result, Space, Spin, Tag, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { type BoardData, type BoardView, boardApi } from '../api';
import { BoardSurface } from '../components/BoardSurface';
import { BoardDataProvider, useBoardData } from '../components/data';
import { editBoardPath } from '../paths';
import '../boards.css';

function LiveTag() {
  const { t } = useTranslation('boards');
  const { connected } = useBoardData();
  return (
    <Tag color={connected ? 'green' : 'default'} data-testid="board-live">
      {connected ? t('show.live', '实时') : t('show.offline', '连接中…')}
    </Tag>
  );
}

export default function BoardShowPage() {
  const { t } = useTranslation('boards');
  const navigate = useNavigate();
  const id = Number(useParams().boardId);
  const [opened, setOpened] = useState<{ board: BoardView; data: BoardData } | null>(null);
  const [failed, setFailed] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    boardApi.open(id).then(
      (result) => live && setOpened(result),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [id]);
  const load = useCallback(() => boardApi.data(id), [id]);

  if (failed) return <Result status="404" title={t('show.missing', '看板不存在或无权查看')} />;
  if (!opened) return <Spin style={{ margin: 48 }} data-testid="board-loading" />;
  const { board, data } = opened;
  return (
    <div ref={root} className={`board-show mode-${board.body.mode}`} data-testid="board-show">
      <BoardDataProvider body={board.body} initial={data} load={load}>
        <div className="board-show-bar">
          <Typography.Text strong>{board.name}</Typography.Text>
          <Space size={4}>
            <LiveTag />
            <Button
              size="small"
              icon={<EditOutlined />}
              onClick={() => navigate(editBoardPath(board.id, board.name))}
            >
              {t('list.design', '设计')}
            </Button>
            <Button
              size="small"
              icon={<FullscreenOutlined />}
              onClick={() => root.current?.requestFullscreen?.().catch(() => undefined)}
              data-testid="board-fullscreen"
            >
              {t('show.fullscreen', '全屏')}
            </Button>
          </Space>
        </div>
        <div className="board-show-body">
          {board.body.widgets.length === 0 ? (
            <Result status="info" title={t('show.empty', '此看板还没有组件')} />
          ) : (
            <BoardSurface body={board.body} fullHeight />
          )}
        </div>
      </BoardDataProvider>
    </div>
  );
}
