import { Typography } from 'antd';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { useMeters } from '../api';
import { EnergyPanel } from '../components/EnergyPanel';
import { MeterFrame } from '../components/MeterHeader';
import { meterPaths } from '../paths';
import '../meters.css';

/**
 * /virtualElectricMeter/:electricMeterId/:electricMeterName: a virtual meter's formula with the
 * meters it names (links to them) and its energy per day or month, computed from theirs.
 */
export default function VirtualMeterPage() {
  const { t } = useTranslation('meters');
  const id = Number(useParams().electricMeterId) || 0;
  const meters = useMeters();
  const byCode = new Map((meters.data ?? []).map((m) => [m.code, m]));

  return (
    <div className="meter-page-bg" data-testid="virtual-meter-page">
      <MeterFrame
        id={id}
        hint={t('meter.virtualHint', '虚拟电表：电量由公式中的电表按公式计算。')}
        details={(m) => [
          { key: 'code', label: t('fields.code', '编码'), children: m.code },
          {
            key: 'formula',
            label: t('fields.formula', '公式'),
            children: (
              <Typography.Text code data-testid="meter-formula-text">
                {m.formula}
              </Typography.Text>
            ),
          },
          {
            key: 'refs',
            label: t('fields.refs', '引用电表'),
            children: (
              <span data-testid="meter-refs">
                {m.refs.map((code, i) => {
                  const ref = byCode.get(code);
                  return (
                    <Fragment key={code}>
                      {i > 0 ? '、' : ''}
                      {ref ? <Link to={meterPaths.view(ref)}>{`${ref.name} (${code})`}</Link> : code}
                    </Fragment>
                  );
                })}
              </span>
            ),
          },
        ]}
      >
        {(m) => <EnergyPanel meterId={m.id} />}
      </MeterFrame>
    </div>
  );
}
