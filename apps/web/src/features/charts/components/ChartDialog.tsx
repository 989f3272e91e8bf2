/** A stored chart in a modal (ChartDialogs): the same drawing as the chart page, with its exports. */
import { Modal, Space } from 'antd';
import { useRef } from 'react';
import ChartActions from './ChartActions';
import ChartView from './ChartView';
import type { ChartInstance } from './EChart';

interface Props {
  open: boolean;
  itemId: number;
  chartId: number;
  name: string;
  onClose: () => void;
}

export default function ChartDialog({ open, itemId, chartId, name, onClose }: Props) {
  const instance = useRef<ChartInstance | null>(null);
  return (
    <Modal
      open={open}
      title={name}
      width="min(1000px, 96vw)"
      onCancel={onClose}
      footer={
        <Space wrap>
          <ChartActions itemId={itemId} chartId={chartId} name={name} instanceRef={instance} />
        </Space>
      }
      destroyOnHidden
      data-testid="chart-dialog"
    >
      <div data-testid="chart-dialog-body">
        <ChartView itemId={itemId} chartId={chartId} height="min(60vh, 480px)" instanceRef={instance} />
      </div>
    </Modal>
  );
}
