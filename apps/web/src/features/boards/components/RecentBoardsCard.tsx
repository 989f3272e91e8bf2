/** Home page card: the boards this person opened last (sd_board only). */
import { Card, Empty, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../../app/store/session';
import { formatMinute } from '../../../shared/time';
import { useRecentBoards } from '../api';
import { showBoardPath } from '../paths';

export function RecentBoardsCard() {
  const { t } = useTranslation('boards');
  const { user } = useSession();
  const allowed = user?.menuCode?.includes('sd_board') ?? false;
  const recent = useRecentBoards(allowed);
  const navigate = useNavigate();
  if (!allowed) return null;
  return (
    <Card title={t('home.recent', '最近打开的看板')} variant="borderless" data-testid="home-recent-boards">
      {recent.data && recent.data.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.none', '还没有打开过看板')} />
      ) : (
        <List
          loading={recent.isLoading}
          dataSource={recent.data ?? []}
          renderItem={(b) => (
            <List.Item
              actions={[
                <Typography.Text key="at" type="secondary">
                  {formatMinute(b.openedAt)}
                </Typography.Text>,
              ]}
            >
              <Typography.Link
                onClick={() => navigate(showBoardPath(b.id))}
                data-testid={`recent-board-${b.id}`}
              >
                {b.name}
              </Typography.Link>{' '}
              <Tag>{t(`mode.${b.mode}`, b.mode)}</Tag>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
