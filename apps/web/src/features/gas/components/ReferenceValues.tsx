import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReferenceMaterial } from '../api';
import { formatAmount, toUnit, twoSignificant, UNIT_TEXT, unitFor } from '../model';
import { Formula } from './Formula';

/** A reference material's certified values in a line: "CO2 10 % ± 0.02 % · 平衡气 N2". */
export function ReferenceValues({
  reference,
}: {
  reference: Pick<ReferenceMaterial, 'components' | 'balance'>;
}) {
  const { t } = useTranslation('gas');
  return (
    <span className="gas-composition">
      {reference.components.map((c) => {
        const unit = unitFor(c.fraction);
        return (
          <Fragment key={c.component}>
            <span className="gas-composition-part">
              <Formula value={c.component} />{' '}
              <span className="gas-number">
                {formatAmount(c.fraction)} ± {twoSignificant(toUnit(c.expanded, unit))} {UNIT_TEXT[unit]}
              </span>
            </span>
            <span className="gas-sep"> · </span>
          </Fragment>
        );
      })}
      <span className="gas-composition-part">
        {t('product.balanceOf', '平衡气')} <Formula value={reference.balance} />
      </span>
    </span>
  );
}
