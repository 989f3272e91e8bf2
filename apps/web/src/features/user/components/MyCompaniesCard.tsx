import { BankOutlined, PlusOutlined, SwapOutlined } from '@ant-design/icons';
import { App, Avatar, Button, Card, Empty, Flex, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { loadSession } from '../../../app/store/loader';
import { rebuildRoutes, refreshSession } from '../../../shared/sessionRefresh';
import { type MyCompany, useMyCompanies, userApi } from '../api';
import { CreateCompanyModal } from './CreateCompanyModal';

/** The companies the person is an active member of, the current one marked; create one; switch. */
export function MyCompaniesCard() {
  const { t } = useTranslation('user');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const companies = useMyCompanies();
  const [creating, setCreating] = useState(false);
  const [switching, setSwitching] = useState<number | null>(null);

  const switchTo = async (company: MyCompany) => {
    setSwitching(company.id);
    try {
      const envelope = await userApi.switchCompany(company.id);
      message.success(envelope.message);
      await loadSession();
      rebuildRoutes(navigate);
    } catch {
      // the http client showed the error
    } finally {
      setSwitching(null);
    }
  };

  return (
    <Card
      variant="borderless"
      title={t('companies.title', '我的公司')}
      data-testid="my-companies"
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setCreating(true)}
          data-testid="company-create"
        >
          {t('companies.create', '创建公司')}
        </Button>
      }
    >
      <Table<MyCompany>
        rowKey="id"
        size="middle"
        loading={companies.isLoading}
        dataSource={companies.data ?? []}
        pagination={false}
        showHeader={false}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t('companies.empty', '您还没有加入任何公司，可以创建公司或等待邀请。')}
            />
          ),
        }}
        columns={[
          {
            key: 'name',
            render: (_, company) => (
              <Flex gap={12} align="center">
                <Avatar shape="square" src={company.logoUrl ?? undefined} icon={<BankOutlined />} />
                <Flex vertical style={{ minWidth: 0 }}>
                  <Typography.Text strong ellipsis>
                    {company.displayName || company.name}
                  </Typography.Text>
                  {company.displayName && company.displayName !== company.name ? (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
                      {company.name}
                    </Typography.Text>
                  ) : null}
                </Flex>
              </Flex>
            ),
          },
          {
            key: 'action',
            align: 'right',
            width: 140,
            render: (_, company) =>
              company.current ? (
                <Tag color="blue" data-testid="company-current">
                  {t('companies.current', '当前公司')}
                </Tag>
              ) : (
                <Button
                  size="small"
                  icon={<SwapOutlined />}
                  loading={switching === company.id}
                  onClick={() => switchTo(company)}
                >
                  {t('companies.switch', '切换到此公司')}
                </Button>
              ),
          },
        ]}
      />
      <CreateCompanyModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={async () => {
          await companies.refetch();
          await refreshSession(navigate).catch(() => false);
        }}
      />
    </Card>
  );
}
