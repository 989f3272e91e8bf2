/** chartpages/:itemId/:chartName/:typeCode/:chartId/:itemName: a stored chart on a page of its own, with its exports. */
import { ArrowLeftOutlined, EditOutlined, ExpandOutlined } from '@ant-design/icons';
import { Button, Card, Result, Space, Typography } from 'antd';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import type { ChartDetail } from '../api';
import ChartActions from '../components/ChartActions';
import ChartDialog from '../components/ChartDialog';
import ChartView from '../components/ChartView';
import type { ChartInstance } from '../components/EChart';
import { chartConfigPath } from '../paths';

export default function ChartPage() {
  const { t } = useTranslation('charts');
  const params = useParams();
  const navigate = useNavigate();
  const itemId = Number(params.itemId);
  const chartId = Number(params.chartId);
  const instance = useRef<ChartInstance | null>(null);
  const [detail, setDetail] = useState<ChartDetail | null>(null);
  const [dialog, setDialog] = useState(false);
  const onLoaded = useCallback((d: ChartDetail) => setDetail(d), []);

  if (!Number.isInteger(itemId) || itemId <= 0 || !Number.isInteger(chartId) || chartId <= 0) {
    return <Result status="404" title={t('editor.badLink')} />;
  }
  const name = detail?.chart.name ?? params.chartName ?? '';
  return (
    <Card
      variant="borderless"
      data-testid="chart-page"
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="chart-page-title">
          {name}
        </Typography.Title>
      }
      extra={
        <Space wrap>
          <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)}>
            {t('actions.back')}
          </Button>
          <Button icon={<ExpandOutlined />} onClick={() => setDialog(true)} data-testid="chart-open-dialog">
            {t('list.dialog')}
          </Button>
          <ChartActions itemId={itemId} chartId={chartId} name={name} instanceRef={instance} />
          {detail?.canEdit ? (
            <Button
              icon={<EditOutlined />}
              onClick={() =>
                navigate(chartConfigPath({ itemId, chartId, itemName: detail.item.name, nodeId: 0 }))
              }
              data-testid="chart-edit"
            >
              {t('actions.edit')}
            </Button>
          ) : null}
        </Space>
      }
    >
      <ChartView
        itemId={itemId}
        chartId={chartId}
        height="calc(100vh - 260px)"
        instanceRef={instance}
        onLoaded={onLoaded}
        live
      />
      <ChartDialog
        open={dialog}
        itemId={itemId}
        chartId={chartId}
        name={name}
        onClose={() => setDialog(false)}
      />
    </Card>
  );
}
