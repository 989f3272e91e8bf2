import { useTranslation } from 'react-i18next';

/** The names of the import's columns as the template heads them. */
export function useColumnLabel(): (column: string) => string {
  const { t } = useTranslation('sims');
  return (column) =>
    ({
      iccid: 'ICCID',
      carrier: t('fields.carrier', '运营商'),
      state: t('fields.state', '状态'),
      planMb: t('fields.planMb', '套餐(MB)'),
      msisdn: t('fields.msisdn', '号码'),
      notes: t('fields.notes', '备注'),
    })[column] ?? column;
}

/** Why the last sync did not update a card. */
export function useSyncErrorLabel(): (code: string) => string {
  const { t } = useTranslation('sims');
  return (code) =>
    code === 'unknownToCarrier'
      ? t('sync.unknownToCarrier', '运营商查无此卡')
      : code === 'carrierFailed'
        ? t('sync.carrierFailed', '运营商未响应')
        : code;
}
