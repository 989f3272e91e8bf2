import { App, Modal, Radio, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { simApi, useCompanyChoices } from '../api';

/** System maintenance: give the chosen cards to a company, or take them back into the stock. */
export function AssignModal({
  ids,
  onClose,
  onDone,
}: {
  /** the chosen cards; null = closed */
  ids: number[] | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('sims');
  const { message } = App.useApp();
  const [target, setTarget] = useState<'company' | 'stock'>('company');
  const [companyId, setCompanyId] = useState<number | null>(null);
  const [keyword, setKeyword] = useState('');
  const [saving, setSaving] = useState(false);
  const companies = useCompanyChoices(keyword, ids !== null && target === 'company');

  const close = () => {
    setTarget('company');
    setCompanyId(null);
    setKeyword('');
    onClose();
  };

  const save = async () => {
    if (!ids) return;
    if (target === 'company' && companyId === null) {
      message.warning(t('assign.pickCompany', '请选择公司'));
      return;
    }
    setSaving(true);
    try {
      const envelope = await simApi.assign(ids, target === 'stock' ? null : companyId);
      message.success(envelope.message);
      onDone();
      close();
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={ids !== null}
      title={t('assign.title', '分配 {{count}} 张 SIM 卡', { count: ids?.length ?? 0 })}
      onCancel={close}
      onOk={save}
      confirmLoading={saving}
      okText={t('common.ok', '确定')}
      cancelText={t('common.cancel', '取消')}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }} data-testid="sim-assign">
        <Radio.Group value={target} onChange={(e) => setTarget(e.target.value)}>
          <Radio value="company">{t('assign.toCompany', '分配给公司')}</Radio>
          <Radio value="stock">{t('assign.toStock', '收回到平台库存')}</Radio>
        </Radio.Group>
        {target === 'company' ? (
          <Select
            showSearch
            filterOption={false}
            onSearch={setKeyword}
            value={companyId ?? undefined}
            onChange={setCompanyId}
            placeholder={t('assign.companyPlaceholder', '搜索公司名称')}
            options={(companies.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            loading={companies.isFetching}
            style={{ width: '100%' }}
            data-testid="sim-assign-company"
          />
        ) : (
          <div className="sim-muted">
            {t('assign.stockHint', '收回后这些卡不再属于任何公司，历史记录保留在平台。')}
          </div>
        )}
      </Space>
    </Modal>
  );
}
