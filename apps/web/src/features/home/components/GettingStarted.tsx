import { Card, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

const STEPS = [
  { key: 'profile', to: '/user/userinfo' },
  { key: 'modules', to: null },
  { key: 'tabs', to: null },
  { key: 'language', to: null },
] as const;

export function GettingStarted() {
  const { t } = useTranslation('home');
  return (
    <Card title={t('start.title', '快速上手')} variant="borderless" data-testid="home-getting-started">
      <List
        split={false}
        dataSource={[...STEPS]}
        renderItem={(step, index) => (
          <List.Item style={{ padding: '6px 0', alignItems: 'flex-start', justifyContent: 'flex-start' }}>
            <span className="home-step-number">{index + 1}</span>
            <span>
              <Typography.Text strong>
                {step.to ? (
                  <Link to={step.to}>{t(`start.${step.key}.title`)}</Link>
                ) : (
                  t(`start.${step.key}.title`)
                )}
              </Typography.Text>
              <br />
              <Typography.Text type="secondary">{t(`start.${step.key}.text`)}</Typography.Text>
            </span>
          </List.Item>
        )}
      />
    </Card>
  );
}
