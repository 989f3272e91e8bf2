/**
 * A chart of the data cabin on a board (widget `chart`, config {chartId, itemId}): drawn by the
 * charts feature's ChartView, live (re-read when the item's records arrive over the app's live
 * hub, and every 30 s), at the widget's size. This module is loaded lazily by Widgets.tsx, so
 * ECharts comes only with a board that shows a chart.
 */
import { useTranslation } from 'react-i18next';
import ChartView from '../../charts/components/ChartView';

export default function ChartEmbed({ chartId, itemId }: { chartId: number | null; itemId: number | null }) {
  const { t } = useTranslation('boards');
  if (chartId == null || itemId == null)
    return <div className="bw-empty">{t('widget.pickChart', '请在属性面板中选择图表')}</div>;
  return (
    <div className="bw-chart" data-testid="widget-chart">
      <ChartView chartId={chartId} itemId={itemId} height="100%" live />
    </div>
  );
}
