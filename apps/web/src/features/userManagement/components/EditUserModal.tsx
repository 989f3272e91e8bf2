import { App, Form, Input, Modal, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NAME_COUNT, nameRules } from '../../../shared/rules';
import { validated } from '../../../shared/validated';
import { type SysUser, umApi } from '../api';
import { RoleSelect } from './RoleSelect';

interface Values {
  userName: string;
  roleIds: number[];
  enabled: boolean;
}

/** Edit a member: name, roles, enabled or disabled. The phone is the account's and stays. */
export function EditUserModal({
  user,
  isSelf,
  onClose,
  onDone,
}: {
  user: SysUser | null;
  isSelf: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('userManagement');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const invited = user?.memberStatus === 'invited';

  useEffect(() => {
    if (user)
      form.setFieldsValue({ userName: user.userName, roleIds: user.roleIds, enabled: user.status === 1 });
  }, [user, form]);

  const submit = async () => {
    if (!user) return;
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      // only what changed: the account's name and status can be changed only by its one company
      const userName = values.userName.trim();
      const status = values.enabled ? 1 : 0;
      const envelope = await umApi.updateSysUser({
        userId: user.userId,
        userName: userName !== user.userName ? userName : undefined,
        status: status !== user.status ? status : undefined,
        roleIds: values.roleIds ?? [],
      });
      message.success(envelope.message);
      onDone();
      onClose();
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={user != null}
      title={t('users.edit', '编辑用户')}
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="edit-user-form">
        <Form.Item label={t('users.phone', '手机号')}>
          <Input value={user?.phone} disabled />
        </Form.Item>
        <Form.Item
          name="userName"
          label={t('users.userName', '姓名')}
          rules={nameRules({
            required: t('rules.nameRequired', '请输入名称'),
            tooLong: t('rules.nameTooLong', '名称长度不能超过 25 个字符'),
          })}
        >
          <Input count={NAME_COUNT} disabled={invited} />
        </Form.Item>
        <Form.Item name="roleIds" label={t('users.roles', '角色')}>
          <RoleSelect testId="edit-user-roles" />
        </Form.Item>
        <Form.Item
          name="enabled"
          label={t('users.status', '状态')}
          valuePropName="checked"
          extra={
            isSelf
              ? t('users.selfStatusHint', '不能停用自己的账号')
              : invited
                ? t('users.invitedHint', '对方尚未接受邀请，目前只能修改其将获得的角色')
                : undefined
          }
        >
          <Switch
            disabled={isSelf || invited}
            checkedChildren={t('users.enabled', '启用')}
            unCheckedChildren={t('users.disabled', '停用')}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
