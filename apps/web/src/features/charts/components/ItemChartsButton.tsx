/**
 * The "Charts" button of a data item's page: a drawer listing the item's charts, to open one as
 * a page or in a dialog, and (read and write on the item) to create, edit or delete one.
 * ECharts is not part of this button: the dialog loads it when it opens.
 */
import {
  AreaChartOutlined,
  DeleteOutlined,
  EditOutlined,
  ExpandOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { App, Button, Drawer, Empty, List, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { type ChartRow, deleteChart, useChartList } from '../api';
import { chartConfigPath, chartPagePath } from '../paths';

const ChartDialog = lazy(() => import('./ChartDialog'));

interface Props {
  item: { id: number; name: string; nodeId: number };
}

export default function ItemChartsButton({ item }: Props) {
  const { t } = useTranslation('charts');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<ChartRow | null>(null);
  const list = useChartList(item.id, open);
  const ref = (c: ChartRow) => ({
    itemId: item.id,
    itemName: item.name,
    chartId: c.id,
    chartName: c.name,
    type: c.type,
  });

  const remove = async (c: ChartRow) => {
    const res = await deleteChart(item.id, c.id);
    message.success(res.message);
    await list.refetch();
  };

  return (
    <>
      <Button icon={<AreaChartOutlined />} onClick={() => setOpen(true)} data-testid="item-charts">
        {t('list.title')}
      </Button>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        title={`${item.name} · ${t('list.title')}`}
        size="large"
        data-testid="item-charts-drawer"
        extra={
          list.data?.canEdit ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() =>
                navigate(
                  chartConfigPath({ itemId: item.id, chartId: 0, itemName: item.name, nodeId: item.nodeId }),
                )
              }
              data-testid="chart-add"
            >
              {t('list.add')}
            </Button>
          ) : null
        }
      >
        {list.data && !list.data.canEdit ? (
          <Typography.Paragraph type="secondary">{t('list.readOnly')}</Typography.Paragraph>
        ) : null}
        <List
          loading={list.isLoading}
          dataSource={list.data?.list ?? []}
          locale={{ emptyText: <Empty description={t('list.empty')} /> }}
          renderItem={(c) => (
            <List.Item
              data-testid="chart-row"
              actions={[
                <Tooltip key="dialog" title={t('list.dialog')}>
                  <Button
                    type="text"
                    icon={<ExpandOutlined />}
                    onClick={() => setShown(c)}
                    aria-label={t('list.dialog')}
                    data-testid="chart-row-dialog"
                  />
                </Tooltip>,
                ...(list.data?.canEdit
                  ? [
                      <Tooltip key="edit" title={t('list.edit')}>
                        <Button
                          type="text"
                          icon={<EditOutlined />}
                          aria-label={t('list.edit')}
                          onClick={() =>
                            navigate(
                              chartConfigPath({
                                itemId: item.id,
                                chartId: c.id,
                                itemName: item.name,
                                nodeId: item.nodeId,
                              }),
                            )
                          }
                        />
                      </Tooltip>,
                      <Popconfirm
                        key="delete"
                        title={t('list.deleteConfirm', { name: c.name })}
                        okButtonProps={{ danger: true }}
                        onConfirm={() => remove(c)}
                      >
                        <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('list.delete')} />
                      </Popconfirm>,
                    ]
                  : []),
              ]}
            >
              <Space>
                <Link to={chartPagePath(ref(c))} data-testid="chart-row-open">
                  {c.name}
                </Link>
                <Tag>{t(`type.${c.type}`, c.type)}</Tag>
              </Space>
            </List.Item>
          )}
        />
      </Drawer>
      {shown ? (
        <Suspense fallback={null}>
          <ChartDialog
            open
            itemId={item.id}
            chartId={shown.id}
            name={shown.name}
            onClose={() => setShown(null)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
