import { ArrowLeftOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Select, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useCabinItems, useDataItem } from '../api';
import { RecordsView } from '../components/RecordsView';
import { childValuePath, dataValuePath } from '../paths';
import '../datarecords.css';

/**
 * /smartdata/ChildValue/:objId/:itemId/:itemName/:parentItemId/:parentObjId/:recordId/:parentName/:filterList/:parentTitleColumn
 * The records of the chosen child item whose parentId is the parent record; new records made
 * here hang under that record.
 */
export default function ChildValuePage() {
  const { t } = useTranslation('datarecords');
  const navigate = useNavigate();
  const params = useParams();
  const itemId = Number(params.itemId);
  const parentItemId = Number(params.parentItemId);
  const parentObjId = Number(params.parentObjId);
  const recordId = Number(params.recordId);
  const parentName = params.parentName ?? '';
  const item = useDataItem(itemId);
  const items = useCabinItems(true);

  const parent = {
    id: parentItemId,
    name: parentName,
    nodeId: parentObjId,
    titleField:
      params.parentTitleColumn && params.parentTitleColumn !== '-' ? params.parentTitleColumn : null,
  };

  const header = (
    <Space size={8} wrap align="center">
      <Button
        icon={<ArrowLeftOutlined />}
        type="text"
        aria-label={t('child.back', '返回')}
        onClick={() =>
          navigate(
            dataValuePath({ itemId: parentItemId, itemName: parentName, kind: 10, objId: parentObjId }),
          )
        }
      />
      <Typography.Title level={4} style={{ margin: 0 }} data-testid="childvalue-title">
        {t('child.title', '子表数据')}
      </Typography.Title>
      <span className="dr-muted">
        {t('child.of', '{{name}} · 记录 #{{id}}', { name: parentName, id: recordId })}
      </span>
      <Select
        className="dr-child-select"
        value={itemId}
        loading={items.isLoading}
        showSearch={{ optionFilterProp: 'label' }}
        options={(items.data ?? [])
          .filter((n) => n.refId != null)
          .map((n) => ({ value: n.refId as number, label: n.name, node: n }))}
        onChange={(value) => {
          const node = items.data?.find((n) => n.refId === value);
          if (!node) return;
          navigate(
            childValuePath(parent, { id: recordId }, { itemId: value, itemName: node.name, objId: node.id }),
          );
        }}
        data-testid="child-item-select"
        aria-label={t('child.item', '子数据项')}
      />
    </Space>
  );

  return (
    <Card variant="borderless" data-testid="childvalue-page" className="dr-page">
      {item.isError ? (
        <Alert type="error" showIcon title={t('item.loadFailed', '无法加载数据项')} />
      ) : !item.data ? (
        <Skeleton active />
      ) : (
        <RecordsView key={`${itemId}-${recordId}`} item={item.data} parentId={recordId} title={header} />
      )}
    </Card>
  );
}
