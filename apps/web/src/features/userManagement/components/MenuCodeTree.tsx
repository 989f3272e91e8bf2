import { Button, Empty, Flex, Spin, Tree, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useMenuCodes } from '../api';
import { closeOver, GROUP_KEY_PREFIX, groupCodes } from '../menu-code-tree';

/** Form control: the role's menu codes as a checkable tree of code groups. */
export function MenuCodeTree({
  value,
  onChange,
  disabled,
}: {
  value?: string[];
  onChange?: (codes: string[]) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('userManagement');
  const menuCodes = useMenuCodes();
  const available = useMemo(() => menuCodes.data ?? [], [menuCodes.data]);
  const availableSet = useMemo(() => new Set(available), [available]);
  const checked = (value ?? []).filter((c) => availableSet.has(c));

  const treeData = useMemo(
    () =>
      groupCodes(available).map(({ group, codes }) => ({
        key: `${GROUP_KEY_PREFIX}${group}`,
        title: t(`role.groups.${group}`, group),
        children: codes.map((code) => ({
          key: code,
          title: (
            <span data-code={code}>
              {t(`menuCode.${code}`, { ns: 'translation', defaultValue: code })}{' '}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {code}
              </Typography.Text>
            </span>
          ),
        })),
      })),
    [available, t],
  );

  if (menuCodes.isLoading) return <Spin />;
  if (available.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('role.noCodes', '没有可授予的权限')} />;
  }

  return (
    <div>
      <Flex gap={8} align="center" style={{ marginBottom: 8 }} wrap>
        <Typography.Text type="secondary">
          {t('role.codesChosen', '已选 {{count}} / {{total}} 项', {
            count: checked.length,
            total: available.length,
          })}
        </Typography.Text>
        <Button size="small" disabled={disabled} onClick={() => onChange?.([...available])}>
          {t('role.selectAll', '全选')}
        </Button>
        <Button size="small" disabled={disabled} onClick={() => onChange?.([])}>
          {t('role.clearAll', '清空')}
        </Button>
      </Flex>
      <div className="um-code-tree" data-testid="role-code-tree">
        <Tree
          checkable
          disabled={disabled}
          selectable={false}
          defaultExpandAll
          treeData={treeData}
          checkedKeys={checked}
          onCheck={(keys) => {
            const list = (Array.isArray(keys) ? keys : keys.checked).map(String);
            const codes = list.filter((k) => !k.startsWith(GROUP_KEY_PREFIX));
            onChange?.(closeOver(checked, codes, availableSet));
          }}
        />
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('role.codesHint', '勾选页面时会自动勾选其上级菜单，取消上级菜单时其下页面一并取消。')}
      </Typography.Text>
    </div>
  );
}
