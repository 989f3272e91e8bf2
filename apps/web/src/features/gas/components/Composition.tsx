import { useTranslation } from 'react-i18next';
import type { ProductComponent } from '../api';
import { formatAmount } from '../model';
import { Formula } from './Formula';

/** A recipe in a line: "CO2 10 % · 平衡气 N2". */
export function Composition({ components, balance }: { components: ProductComponent[]; balance: string }) {
  const { t } = useTranslation('gas');
  return (
    <span className="gas-composition">
      {components.map((c) => (
        <span key={c.component} className="gas-composition-part">
          <Formula value={c.component} /> {formatAmount(c.fraction)}
          <span className="gas-sep"> · </span>
        </span>
      ))}
      <span className="gas-composition-part">
        {t('product.balanceOf', '平衡气')} <Formula value={balance} />
      </span>
    </span>
  );
}
