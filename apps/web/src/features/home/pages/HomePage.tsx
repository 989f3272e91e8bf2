import { CalendarOutlined } from '@ant-design/icons';
import { Card, Col, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useBuiltRoutes } from '../../../app/router/context';
import { useSession } from '../../../app/store/session';
import { MyAlarmsCard } from '../../alarms/components/MyAlarmsCard';
import { RecentBoardsCard } from '../../boards/components/RecentBoardsCard';
import { useCurrentCompany } from '../api';
import { GettingStarted } from '../components/GettingStarted';
import { ModuleCard } from '../components/ModuleCard';
import '../home.css';
import { formatTime } from '../../../shared/time';

/** Welcome, the modules this person may open (top-level permitted menus), getting started. */
export default function HomePage() {
  const { t } = useTranslation('home');
  const { user, company } = useSession();
  const { tree } = useBuiltRoutes();
  const { data: fresh } = useCurrentCompany();
  const expiresAt = fresh?.serviceExpiresAt ?? company?.serviceExpiresAt ?? null;
  const modules = tree.filter((entry) => !entry.hidden && (entry.children?.some((c) => !c.hidden) ?? false));
  const companyName = company?.displayName || company?.name || t('welcome.noCompany', '未加入公司');
  return (
    <div className="home-page" data-testid="home-page">
      <Card className="home-welcome" variant="borderless">
        <Typography.Text className="home-company" data-testid="home-company">
          {companyName}
        </Typography.Text>
        <Typography.Title level={3} style={{ margin: '4px 0 8px' }}>
          {t('welcome.greeting', '欢迎回来，{{name}}', { name: user?.userName ?? '' })}
        </Typography.Title>
        <Typography.Paragraph style={{ marginBottom: 0 }}>
          {t('welcome.text', '在这里进入您有权限使用的模块，或从左侧菜单开始工作。')}
        </Typography.Paragraph>
        {expiresAt ? (
          <Typography.Text className="home-service" data-testid="home-service">
            <CalendarOutlined />{' '}
            {t('welcome.service', '服务有效期至 {{date}}', { date: formatTime(expiresAt, 'yyyy-MM-dd') })}
          </Typography.Text>
        ) : null}
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Card title={t('modules.title', '我的模块')} variant="borderless" data-testid="home-modules">
            {modules.length === 0 ? (
              <Typography.Text type="secondary">
                {t('modules.none', '您的角色暂未分配任何模块，请联系公司管理员。')}
              </Typography.Text>
            ) : (
              <Row gutter={[12, 12]}>
                {modules.map((entry) => (
                  <Col key={entry.path} xs={24} sm={12} lg={8}>
                    <ModuleCard entry={entry} />
                  </Col>
                ))}
              </Row>
            )}
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <GettingStarted />
            <MyAlarmsCard />
            <RecentBoardsCard />
          </Space>
        </Col>
      </Row>
    </div>
  );
}
