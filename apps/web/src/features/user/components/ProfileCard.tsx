import {
  DeleteOutlined,
  EditOutlined,
  KeyOutlined,
  MailOutlined,
  PhoneOutlined,
  UploadOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { App, Avatar, Button, Card, Flex, Popconfirm, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadSession } from '../../../app/store/loader';
import { useSession } from '../../../app/store/session';
import { ImageUpload } from '../../../shared/ImageUpload';
import { userApi } from '../api';
import { ChangePasswordModal } from './ChangePasswordModal';
import { EditProfileModal } from './EditProfileModal';

/** Avatar (upload, remove), name, phone, email; edit profile and change password. */
export function ProfileCard() {
  const { t } = useTranslation('user');
  const { message } = App.useApp();
  const { user, company } = useSession();
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);

  const run = async (action: () => Promise<{ message: string }>) => {
    setBusy(true);
    try {
      const envelope = await action();
      message.success(envelope.message);
      await loadSession();
    } catch {
      // the http client showed the error
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card variant="borderless" className="user-profile-card" data-testid="profile-card">
      <Flex vertical align="center" gap={12}>
        {user?.headImgUrl ? (
          <Avatar size={96} src={user.headImgUrl} alt="" data-testid="profile-avatar" />
        ) : (
          <Avatar
            size={96}
            icon={<UserOutlined />}
            style={{ background: '#1668dc' }}
            data-testid="profile-avatar-default"
          />
        )}
        <Flex gap={8} wrap justify="center">
          <ImageUpload
            testId="avatar-upload"
            disabled={busy}
            onFile={(file) => run(() => userApi.uploadAvatar(file))}
          >
            <Button icon={<UploadOutlined />} loading={busy} size="small">
              {t('profile.uploadAvatar', '更换头像')}
            </Button>
          </ImageUpload>
          {user?.headImgUrl ? (
            <Popconfirm
              title={t('profile.removeAvatarConfirm', '确定移除头像吗？移除后将显示默认头像。')}
              okText={t('common.ok', '确定')}
              cancelText={t('common.cancel', '取消')}
              onConfirm={() => run(() => userApi.removeAvatar())}
            >
              <Button icon={<DeleteOutlined />} size="small" disabled={busy} data-testid="avatar-remove">
                {t('profile.removeAvatar', '移除头像')}
              </Button>
            </Popconfirm>
          ) : null}
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('profile.avatarHint', '支持 JPG、PNG 格式，大小不超过 3 MB')}
        </Typography.Text>
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="profile-name">
          {user?.userName}
        </Typography.Title>
        {company ? (
          <Typography.Text type="secondary">{company.displayName || company.name}</Typography.Text>
        ) : null}
      </Flex>
      <Flex vertical gap={8} className="user-profile-facts">
        <Flex gap={8} align="center">
          <PhoneOutlined />
          <Typography.Text type="secondary">{t('profile.phone', '手机号')}</Typography.Text>
          <Typography.Text className="user-fact-value">{user?.phone}</Typography.Text>
        </Flex>
        <Flex gap={8} align="center">
          <MailOutlined />
          <Typography.Text type="secondary">{t('profile.email', '邮箱')}</Typography.Text>
          <Typography.Text className="user-fact-value" data-testid="profile-email">
            {user?.email || t('profile.noEmail', '未设置')}
          </Typography.Text>
        </Flex>
      </Flex>
      <Flex gap={8} wrap>
        <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="profile-edit">
          {t('profile.edit', '编辑资料')}
        </Button>
        <Button
          icon={<KeyOutlined />}
          onClick={() => setChangingPassword(true)}
          data-testid="profile-password"
        >
          {t('profile.changePassword', '修改密码')}
        </Button>
      </Flex>
      <EditProfileModal open={editing} onClose={() => setEditing(false)} />
      <ChangePasswordModal open={changingPassword} onClose={() => setChangingPassword(false)} />
    </Card>
  );
}
