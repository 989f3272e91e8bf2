import { SwapOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { meterKeys, useMeterLog } from '../api';
import { EnergyPanel } from '../components/EnergyPanel';
import { LivePanel } from '../components/LivePanel';
import { MeterFrame } from '../components/MeterHeader';
import { MeterLogTable } from '../components/MeterLogTable';
import { ReplaceModal } from '../components/ReplaceModal';
import { num } from '../format';
import '../meters.css';

/**
 * /standardElectricMeter/:electricMeterId/:electricMeterName: a standard meter's live values
 * (read again every few seconds), its energy per day or month split by time-of-use period with
 * cost, and its log; a replacement is recorded here (write level).
 */
export default function StandardMeterPage() {
  const { t } = useTranslation('meters');
  const id = Number(useParams().electricMeterId) || 0;
  const queryClient = useQueryClient();
  const log = useMeterLog(id);
  const [replacing, setReplacing] = useState(false);
  const sampling: Record<number, number> = { 1: 1, 2: 5, 3: 10, 4: 15 };

  return (
    <div className="meter-page-bg" data-testid="standard-meter-page">
      <MeterFrame
        id={id}
        hint={t('meter.standardHint', '标准电表：读取数据项的累计电能，乘以 CT、PT 变比得到电量。')}
        actions={(m) =>
          m.level >= 2 ? (
            <Button icon={<SwapOutlined />} onClick={() => setReplacing(true)} data-testid="meter-replace">
              {t('replace.title', '记录换表')}
            </Button>
          ) : null
        }
        details={(m) => [
          { key: 'code', label: t('fields.code', '编码'), children: m.code },
          { key: 'item', label: t('fields.item', '数据项'), children: m.itemName ?? '—' },
          {
            key: 'ratio',
            label: t('fields.multiplier', '倍率'),
            children: `CT ${num(m.ct.primary)}/${num(m.ct.secondary)} × PT ${num(m.pt.primary)}/${num(m.pt.secondary)} = ${num(m.multiplier, 4)}`,
          },
          {
            key: 'digits',
            label: t('fields.registerDigits', '整数位数'),
            children: m.registerDigits ?? t('meter.noRollover', '不翻转'),
          },
          {
            key: 'sampling',
            label: t('fields.sampling', '采样频率'),
            children: t('config.minutes', '{{count}} 分钟', { count: sampling[m.samplingId ?? 4] ?? 15 }),
          },
          {
            key: 'children',
            label: t('fields.children', '子电表'),
            children: m.children.length > 0 ? m.children.map((c) => c.name).join('、') : '—',
          },
        ]}
      >
        {(m) => (
          <>
            <LivePanel meterId={m.id} />
            <EnergyPanel meterId={m.id} />
            <Card title={t('log.title', '电表日志')} className="meter-card">
              <MeterLogTable rows={log.data ?? []} loading={log.isLoading} />
            </Card>
            <ReplaceModal
              meter={m}
              open={replacing}
              onClose={() => setReplacing(false)}
              onDone={() => {
                setReplacing(false);
                void queryClient.invalidateQueries({ queryKey: meterKeys.all });
              }}
            />
          </>
        )}
      </MeterFrame>
    </div>
  );
}
