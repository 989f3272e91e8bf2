import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { App, Badge, Button, Card, Flex, Popconfirm, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { refreshSession } from '../../../shared/sessionRefresh';
import { formatMinute } from '../../../shared/time';
import { type Invitation, useMyInvitations, userApi } from '../api';

/** Invitations waiting for the person's answer: agree (joins the company) or refuse. Hidden when there are none. */
export function InvitationsCard() {
  const { t } = useTranslation('user');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const invitations = useMyInvitations();
  const [busy, setBusy] = useState<number | null>(null);
  const list = invitations.data ?? [];

  const answer = async (invitation: Invitation, agree: boolean) => {
    setBusy(invitation.companyId);
    try {
      const envelope = agree
        ? await userApi.agreeInvitation(invitation.companyId)
        : await userApi.refuseInvitation(invitation.companyId);
      message.success(envelope.message);
      await invitations.refetch();
      // joining a company adds it to the user record (the company switcher appears)
      if (agree) await refreshSession(navigate).catch(() => false);
    } catch {
      // the http client showed the error
    } finally {
      setBusy(null);
    }
  };

  // nothing to answer: the card stays out of the way
  if (list.length === 0) return null;

  return (
    <Card
      variant="borderless"
      data-testid="my-invitations"
      title={
        <Flex gap={8} align="center">
          {t('invitations.title', '待处理的邀请')}
          <Badge count={list.length} />
        </Flex>
      }
    >
      <Table<Invitation>
        rowKey="companyId"
        size="middle"
        dataSource={list}
        pagination={false}
        showHeader={false}
        columns={[
          {
            key: 'company',
            render: (_, invitation) => (
              <Flex vertical style={{ minWidth: 0 }}>
                <Typography.Text strong>{invitation.companyName}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {invitation.invitedBy
                    ? t('invitations.from', '{{name}} 于 {{date}} 邀请您加入', {
                        name: invitation.invitedBy,
                        date: formatMinute(invitation.createdAt),
                      })
                    : t('invitations.at', '{{date}} 收到的邀请', {
                        date: formatMinute(invitation.createdAt),
                      })}
                </Typography.Text>
              </Flex>
            ),
          },
          {
            key: 'action',
            align: 'right',
            width: 200,
            render: (_, invitation) => (
              <Flex gap={8} justify="flex-end" wrap>
                <Button
                  type="primary"
                  size="small"
                  icon={<CheckOutlined />}
                  loading={busy === invitation.companyId}
                  onClick={() => answer(invitation, true)}
                  data-testid="invitation-agree"
                >
                  {t('invitations.agree', '同意')}
                </Button>
                <Popconfirm
                  title={t('invitations.refuseConfirm', '确定拒绝加入“{{name}}”吗？', {
                    name: invitation.companyName,
                  })}
                  okText={t('common.ok', '确定')}
                  cancelText={t('common.cancel', '取消')}
                  onConfirm={() => answer(invitation, false)}
                >
                  <Button
                    size="small"
                    danger
                    icon={<CloseOutlined />}
                    disabled={busy === invitation.companyId}
                    data-testid="invitation-refuse"
                  >
                    {t('invitations.refuse', '拒绝')}
                  </Button>
                </Popconfirm>
              </Flex>
            ),
          },
        ]}
      />
    </Card>
  );
}
