import { TableOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Empty,
  Result,
  Skeleton,
  Space,
  Switch,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { cabinApi, cabinKeys, type DataItem, useCabinTree, useDataItem } from '../api';
import { can, paths } from '../cabin';
import { KIND_COLORS } from '../components/NodeIcon';
import { PermissionEditor } from '../components/PermissionEditor';
import { AnalysisTab } from '../config/AnalysisTab';
import { FieldsTab } from '../config/FieldsTab';
import { FormTab } from '../config/FormTab';
import { JumpsTab } from '../config/JumpsTab';
import { SourcesTab } from '../config/SourcesTab';
import '../datacabin.css';

/**
 * /smartdata/dataitem/config/:itemId/:itemName/:id — a data item's definition: fields, data
 * sources, form (kind 11), jump associations, intelligent analysis and permissions.
 * Configuring needs administrator level on the item; lower levels see it read only.
 */
export default function DataItemConfigPage() {
  const { t } = useTranslation('datacabin');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const params = useParams();
  const itemId = Number(params.itemId);
  const nodeIdParam = Number(params.id);
  const item = useDataItem(itemId);
  const tree = useCabinTree();

  if (!Number.isInteger(itemId) || itemId <= 0) {
    return <Result status="404" title={t('config.badLink', '链接无效')} />;
  }
  if (item.isLoading) {
    return (
      <Card variant="borderless">
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  if (!item.data) {
    return (
      <Card variant="borderless" data-testid="item-config-page">
        <Empty description={t('config.notFound', '数据项不存在或您没有权限查看')} />
      </Card>
    );
  }

  const data = item.data;
  const editable = can.admin(data.level);
  const nodeId = data.nodeId || nodeIdParam;
  const node = tree.data?.find((n) => n.id === nodeId);
  const parent = node?.parentId == null ? undefined : tree.data?.find((n) => n.id === node.parentId);
  const saved = (next: DataItem) => {
    queryClient.setQueryData(cabinKeys.item(itemId), next);
    void queryClient.invalidateQueries({ queryKey: cabinKeys.tree });
  };

  const togglePublic = async (publicCollect: boolean) => {
    try {
      const envelope = await cabinApi.updateItem({ itemId, publicCollect });
      message.success(envelope.message);
      saved(envelope.data);
    } catch {
      // the http client showed the error
    }
  };

  const tabs = [
    {
      key: 'fields',
      label: t('config.fields', '字段'),
      children: <FieldsTab item={data} editable={editable} onSaved={saved} />,
    },
    {
      key: 'sources',
      label: t('config.sources', '数据来源'),
      children: <SourcesTab item={data} editable={editable} onSaved={saved} />,
    },
    ...(data.kind === 11
      ? [
          {
            key: 'form',
            label: t('config.form', '表单设计'),
            children: <FormTab item={data} editable={editable} />,
          },
        ]
      : []),
    {
      key: 'jumps',
      label: t('config.jumps', '跳转关联'),
      children: <JumpsTab item={data} editable={editable} />,
    },
    {
      key: 'analysis',
      label: t('config.analysis', '智能分析'),
      children: <AnalysisTab item={data} editable={editable} />,
    },
    {
      key: 'permission',
      label: t('config.permission', '权限'),
      children: <PermissionEditor nodeId={nodeId} />,
    },
  ];

  return (
    <Card variant="borderless" data-testid="item-config-page">
      <div className="dc-config-head">
        <Space wrap>
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="item-config-title">
            {data.name}
          </Typography.Title>
          <Tag color={KIND_COLORS[data.kind]}>{t(`kind.${data.kind}`, String(data.kind))}</Tag>
          {!editable && <Tag>{t('config.readOnly', '只读')}</Tag>}
        </Space>
        <Space wrap>
          <Tooltip title={t('config.publicHint', '公开采集后，任何本公司的提交密钥都可以向此数据项写入数据')}>
            <Space>
              <Typography.Text>{t('config.public', '公开采集')}</Typography.Text>
              <Switch
                checked={data.publicCollect}
                disabled={!editable}
                onChange={togglePublic}
                data-testid="item-public"
              />
            </Space>
          </Tooltip>
          <Button
            icon={<TableOutlined />}
            onClick={() =>
              navigate(
                paths.records({ refId: data.id, name: data.name, kind: data.kind, id: nodeId }, parent),
              )
            }
          >
            {t('cabin.records', '数据记录')}
          </Button>
        </Space>
      </div>
      <Tabs items={tabs} destroyOnHidden={false} data-testid="item-config-tabs" />
    </Card>
  );
}
