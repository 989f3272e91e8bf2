import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, List, Skeleton, Space, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { NAME_COUNT } from '../../../shared/rules';
import { cabinApi, cabinKeys, useCabinTree, useItemGroup } from '../api';
import { cabinNameRule, paths } from '../cabin';
import { ItemPicker } from '../components/ItemPicker';
import { KIND_COLORS, NodeIcon } from '../components/NodeIcon';
import '../datacabin.css';
import { validated } from '../../../shared/validated';

/** /smartdata/itemgroup/config/:groupId ('new' for a new group): name and member items. */
export default function ItemGroupConfigPage() {
  const { t } = useTranslation('datacabin');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const params = useParams();
  const isNew = params.groupId === 'new';
  const groupId = isNew ? null : Number(params.groupId);
  const group = useItemGroup(groupId);
  const tree = useCabinTree();
  const [form] = Form.useForm<{ name: string }>();
  const [itemIds, setItemIds] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (group.data) {
      form.setFieldsValue({ name: group.data.name });
      setItemIds((group.data.items ?? []).map((i) => i.itemId));
    }
  }, [group.data, form]);

  const byItem = useMemo(
    () => new Map((tree.data ?? []).filter((n) => n.type === 'dataItem').map((n) => [n.refId, n])),
    [tree.data],
  );

  const save = async () => {
    const checked = await validated(form);
    if (!checked) return;
    const { name } = checked;
    setSaving(true);
    try {
      const envelope = await cabinApi.saveItemGroup({
        ...(groupId ? { id: groupId } : {}),
        name: name.trim(),
        itemIds,
      });
      message.success(envelope.message);
      void queryClient.invalidateQueries({ queryKey: cabinKeys.itemGroupsAll });
      if (isNew) navigate(paths.itemGroupConfig(envelope.data.id), { replace: true });
      else void group.refetch();
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  if (!isNew && group.isLoading) {
    return (
      <Card variant="borderless">
        <Skeleton active />
      </Card>
    );
  }

  return (
    <Card
      variant="borderless"
      title={isNew ? t('groups.add', '新建数据项组') : t('groups.config', '配置数据项组')}
      data-testid="itemgroup-config-page"
    >
      <Form form={form} layout="vertical" style={{ maxWidth: 640 }}>
        <Form.Item name="name" label={t('groups.name', '数据项组名称')} rules={[cabinNameRule('directory')]}>
          <Input count={NAME_COUNT} data-testid="itemgroup-name" />
        </Form.Item>
        <Form.Item label={t('groups.items', '数据项')}>
          <ItemPicker
            multiple
            value={itemIds}
            onChange={(v) => setItemIds(Array.isArray(v) ? v : [])}
            testId="itemgroup-items"
          />
        </Form.Item>
        <List
          size="small"
          bordered
          dataSource={itemIds}
          locale={{ emptyText: t('groups.noItems', '还没有选择数据项') }}
          renderItem={(id) => {
            const node = byItem.get(id);
            const known = group.data?.items?.find((i) => i.itemId === id);
            return (
              <List.Item>
                <Space>
                  <NodeIcon type="dataItem" kind={node?.kind ?? known?.kind} />
                  <Typography.Text>{node?.name ?? known?.name ?? `#${id}`}</Typography.Text>
                  {(node?.kind ?? known?.kind) && (
                    <Tag color={KIND_COLORS[(node?.kind ?? known?.kind)!]}>
                      {t(`kind.${node?.kind ?? known?.kind}`, '')}
                    </Tag>
                  )}
                </Space>
              </List.Item>
            );
          }}
        />
        <Space className="dc-gap-top">
          <Button onClick={() => navigate('/project/itemgroup')}>{t('common.back', '返回')}</Button>
          <Button type="primary" loading={saving} onClick={save} data-testid="itemgroup-save">
            {t('common.save', '保存')}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
