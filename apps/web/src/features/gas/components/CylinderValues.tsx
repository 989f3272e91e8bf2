import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { Cylinder } from '../api';
import { certifiedValue, UNIT_TEXT, unitFor } from '../model';
import { Formula } from './Formula';

/** The cylinder's gravimetric values in a line, the balance gas last: "CO2 9.9998 % · O2 9.0 µmol/mol · 平衡气 N2". */
export function CylinderValues({ cylinder }: { cylinder: Pick<Cylinder, 'values' | 'balance'> }) {
  const { t } = useTranslation('gas');
  return (
    <span className="gas-composition">
      {cylinder.values
        .filter((v) => v.component !== cylinder.balance)
        .map((v) => {
          const unit = unitFor(v.fraction);
          return (
            <Fragment key={v.component}>
              <span className="gas-composition-part">
                <Formula value={v.component} />{' '}
                <span className="gas-number">
                  {certifiedValue(v.fraction, unit)} {UNIT_TEXT[unit]}
                </span>
              </span>
              <span className="gas-sep"> · </span>
            </Fragment>
          );
        })}
      <span className="gas-composition-part">
        {t('product.balanceOf', '平衡气')} <Formula value={cylinder.balance} />
      </span>
    </span>
  );
}
