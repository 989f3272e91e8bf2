import { Alert, Card, Skeleton, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import ItemChartsButton from '../../charts/components/ItemChartsButton';
import { RecordDocumentAction } from '../../doctemplates/components/RecordDocumentAction';
import { useDataItem } from '../api';
import { RecordsView } from '../components/RecordsView';
import { childValuePath, formPagePath } from '../paths';
import '../datarecords.css';

/** /smartdata/datavalue/:itemId/:itemName/:itemType/:objId/:pid/:parentDirectory: an item's records. */
export default function DataValuePage() {
  const { t } = useTranslation('datarecords');
  const params = useParams();
  const itemId = Number(params.itemId);
  const item = useDataItem(itemId);

  if (item.isError) {
    return (
      <Card variant="borderless" data-testid="datavalue-page">
        <Alert type="error" showIcon title={t('item.loadFailed', '无法加载数据项')} />
      </Card>
    );
  }
  if (!item.data) {
    return (
      <Card variant="borderless" data-testid="datavalue-page">
        <Skeleton active />
      </Card>
    );
  }
  const data = item.data;
  const directory = params.parentDirectory && params.parentDirectory !== '-' ? params.parentDirectory : null;

  return (
    <Card variant="borderless" data-testid="datavalue-page" className="dr-page">
      <RecordsView
        item={data}
        childPath={(record) => childValuePath(data, record)}
        formPath={data.kind === 11 ? formPagePath(data) : undefined}
        rowActions={(record) => <RecordDocumentAction item={data} recordId={record.id} />}
        title={
          <Space size={8} wrap>
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="datavalue-title">
              {data.name}
            </Typography.Title>
            <Tag>{t(`kinds.${data.kind}`, String(data.kind))}</Tag>
            {directory ? <span className="dr-muted">{directory}</span> : null}
            <ItemChartsButton item={data} />
          </Space>
        }
      />
    </Card>
  );
}
