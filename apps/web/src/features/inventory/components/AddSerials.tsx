import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inventoryApi, type OrderDetail, useCategoryChoices } from '../api';
import { MAX_SERIALS, parseSerials, type Refused, refusedOf, withoutRefused } from '../model';
import { RefusalAlert } from './RefusalAlert';
import { SerialsInput } from './SerialsInput';

/**
 * Serial numbers scanned or pasted into an open order, all or none. An entry of SIM cards or
 * other goods takes serial numbers new to the inventory into the category chosen here. A
 * refusal lists every serial number refused and offers to take them out of the input.
 */
export function AddSerials({ order, onDone }: { order: OrderDetail; onDone: () => void }) {
  const { t } = useTranslation('inventory');
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const [categoryId, setCategoryId] = useState<number | undefined>();
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<Refused | null>(null);
  const categories = useCategoryChoices();
  const newUnits = order.kind === 'entry' && order.source !== 'own';
  const choices = (categories.data?.list ?? []).filter((c) => c.serialized && c.kind === order.source);
  const sns = parseSerials(text);

  const add = async () => {
    setBusy(true);
    setRefused(null);
    try {
      const envelope = await inventoryApi.addUnits({
        id: order.id,
        sns,
        ...(categoryId ? { categoryId } : {}),
      });
      message.success(t('detail.added', { count: envelope.data.added }));
      setText('');
      onDone();
    } catch (error) {
      const why = refusedOf(error);
      // serial numbers new here need the category they join: said in the page's words
      setRefused(why.field === 'categoryId' ? { ...why, message: t('detail.categoryNeeded') } : why);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="inv-add" data-testid="inv-add">
      <div className="inv-section-title">{t('detail.addTitle')}</div>
      <RefusalAlert
        refused={refused}
        onClose={() => setRefused(null)}
        onDrop={() => {
          setText(withoutRefused(text, refused?.refusals ?? []));
          setRefused(null);
        }}
        testId="inv-add-refusal"
      />
      <SerialsInput value={text} onChange={setText} rows={4} testId="inv-add-serials" />
      <div className="inv-toolbar inv-add-bar">
        {newUnits ? (
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            className="inv-select-wide"
            placeholder={t('detail.newCategory')}
            value={categoryId}
            options={choices.map((c) => ({
              value: c.id,
              label: c.model ? `${c.name} · ${c.model}` : c.name,
            }))}
            onChange={setCategoryId}
            aria-label={t('detail.newCategory')}
            data-testid="inv-add-category"
          />
        ) : null}
        <Button
          type="primary"
          icon={<PlusOutlined />}
          loading={busy}
          disabled={sns.length === 0 || sns.length > MAX_SERIALS}
          onClick={add}
          data-testid="inv-add-submit"
        >
          {t('detail.add', { count: sns.length })}
        </Button>
        {newUnits ? <span className="inv-muted">{t('detail.newCategoryHint')}</span> : null}
      </div>
    </div>
  );
}
