/** Export buttons of a drawn chart: its data as CSV or XLSX (server), its picture as PNG (ECharts getDataURL). */
import { DownloadOutlined, FileImageOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import type { MutableRefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { exportChart } from '../api';
import { type ChartInstance, pngOf } from './EChart';

interface Props {
  itemId: number;
  chartId: number;
  name: string;
  instanceRef: MutableRefObject<ChartInstance | null>;
  width?: number;
}

export default function ChartActions({ itemId, chartId, name, instanceRef, width = 1000 }: Props) {
  const { t } = useTranslation('charts');
  const savePng = () => {
    const instance = instanceRef.current;
    if (!instance) return;
    const link = document.createElement('a');
    link.href = pngOf(instance);
    link.download = `${name}.png`;
    document.body.appendChild(link);
    link.click();
    link.remove();
  };
  return (
    <>
      <Dropdown
        menu={{
          items: [
            { key: 'csv', label: t('actions.exportCsv'), 'data-testid': 'chart-export-csv' } as never,
            { key: 'xlsx', label: t('actions.exportXlsx'), 'data-testid': 'chart-export-xlsx' } as never,
          ],
          onClick: ({ key }) =>
            void exportChart({ itemId, id: chartId, name, format: key as 'csv' | 'xlsx', width }).catch(
              () => {},
            ),
        }}
      >
        <Button icon={<DownloadOutlined />} data-testid="chart-export">
          {t('actions.export')}
        </Button>
      </Dropdown>
      <Button icon={<FileImageOutlined />} onClick={savePng} data-testid="chart-export-png">
        {t('actions.exportPng')}
      </Button>
    </>
  );
}
