import { App, Form, Input, Modal, Radio } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NAME_COUNT, nameRules } from '../../../shared/rules';
import { validated } from '../../../shared/validated';
import { ROLE_TYPES, type Role, umApi } from '../api';
import { MenuCodeTree } from './MenuCodeTree';
import { roleDisplayName, roleTypeLabel } from './roleType';

interface Values {
  name: string;
  description?: string;
  roleType: number;
  menuCodes: string[];
}

/** Add a role (`role` undefined) or edit one. */
export function RoleModal({
  open,
  role,
  onClose,
  onDone,
}: {
  open: boolean;
  role: Role | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('userManagement');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  // the built-in administrator role keeps its type and codes (the server refuses changes)
  const locked = role?.builtin === true && role.roleType === 1;

  useEffect(() => {
    if (!open) return;
    if (role) {
      form.setFieldsValue({
        name: roleDisplayName(t, role),
        description: role.description ?? '',
        roleType: role.roleType,
        menuCodes: role.menuCodes,
      });
    } else {
      form.resetFields();
    }
  }, [open, role, form, t]);

  const submit = async () => {
    const values = await validated(form);
    if (!values) return;
    const body = {
      name: values.name.trim(),
      description: values.description?.trim() ?? '',
      roleType: values.roleType,
      menuCodes: values.menuCodes ?? [],
    };
    setSaving(true);
    try {
      // a built-in role's label left as shown keeps the role's stored name
      if (role && body.name === roleDisplayName(t, role)) body.name = role.name;
      const envelope = role
        ? await umApi.updateRole(
            locked
              ? { id: role.id, name: body.name, description: body.description }
              : { id: role.id, ...body },
          )
        : await umApi.addRole(body);
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
      open={open}
      title={role ? t('role.edit', '编辑角色') : t('role.add', '新增角色')}
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      width={640}
      forceRender
    >
      <Form
        form={form}
        layout="vertical"
        data-testid="role-form"
        initialValues={{ roleType: 2, menuCodes: [], name: '', description: '' }}
      >
        <Form.Item
          name="name"
          label={t('role.name', '角色名称')}
          rules={nameRules({
            required: t('rules.nameRequired', '请输入名称'),
            tooLong: t('rules.nameTooLong', '名称长度不能超过 25 个字符'),
          })}
        >
          <Input count={NAME_COUNT} data-testid="role-name" />
        </Form.Item>
        <Form.Item
          name="roleType"
          label={t('role.roleType', '角色类型')}
          extra={locked ? t('role.lockedHint', '内置管理员角色的类型和菜单权限不能修改') : undefined}
        >
          <Radio.Group
            disabled={locked}
            options={ROLE_TYPES.map((type) => ({ value: type, label: roleTypeLabel(t, type) }))}
            data-testid="role-type"
          />
        </Form.Item>
        <Form.Item name="description" label={t('role.description', '描述')}>
          <Input.TextArea rows={2} maxLength={200} />
        </Form.Item>
        <Form.Item name="menuCodes" label={t('role.menuCodes', '菜单权限')}>
          <MenuCodeTree disabled={locked} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
