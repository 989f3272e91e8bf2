/** ChartDialogs/…: the chart opened straight in its dialog (a link to the dialog); closing goes back. */
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import ChartDialog from '../components/ChartDialog';

export default function ChartDialogsPage() {
  const { t } = useTranslation('charts');
  const params = useParams();
  const navigate = useNavigate();
  const itemId = Number(params.itemId);
  const chartId = Number(params.chartId);
  if (!Number.isInteger(itemId) || itemId <= 0 || !Number.isInteger(chartId) || chartId <= 0) {
    return <Result status="404" title={t('editor.badLink')} />;
  }
  return (
    <ChartDialog
      open
      itemId={itemId}
      chartId={chartId}
      name={params.chartName ?? ''}
      onClose={() => (window.history.length > 1 ? navigate(-1) : navigate('/home'))}
    />
  );
}
