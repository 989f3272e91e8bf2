import type { TablePaginationConfig } from 'antd';
import { Card, Input, InputNumber, Space } from 'antd';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../shared/PageHeader';

/**
 * What the two system maintenance lists share: a company filter (sent to the server), a
 * keyword searched in the rows of the page shown, and paging without a total (the server
 * answers pages of rows): one more page is offered while a page comes back full.
 */
export function useSystemPaging() {
  const [pageNum, setPageNum] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [companyId, setCompanyId] = useState<number | undefined>();
  const [keyword, setKeyword] = useState('');
  const pagination = (rows: number): TablePaginationConfig => ({
    current: pageNum,
    pageSize,
    total: (pageNum - 1) * pageSize + rows + (rows === pageSize ? 1 : 0),
    showSizeChanger: true,
    pageSizeOptions: [20, 50, 100],
    onChange: (n, size) => {
      setPageNum(size === pageSize ? n : 1);
      setPageSize(size);
    },
  });
  const matches = (...texts: Array<string | null | undefined>) => {
    const k = keyword.trim().toLowerCase();
    return k === '' || texts.some((x) => x?.toLowerCase().includes(k));
  };
  return {
    pageNum,
    pageSize,
    companyId,
    keyword,
    pagination,
    matches,
    setCompanyId: (id: number | undefined) => {
      setCompanyId(id);
      setPageNum(1);
    },
    setKeyword,
  };
}

export function SystemListFrame({
  title,
  hint,
  paging,
  children,
  testId,
}: {
  title: string;
  hint: string;
  paging: ReturnType<typeof useSystemPaging>;
  children: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation('meters');
  return (
    <Card variant="borderless" data-testid={testId}>
      <PageHeader title={title} hint={hint} />
      <Space wrap className="meter-toolbar">
        <InputNumber
          min={1}
          precision={0}
          placeholder={t('system.companyId', '公司 ID')}
          value={paging.companyId}
          onChange={(v) => paging.setCompanyId(v ?? undefined)}
          className="meter-company-filter"
          data-testid="system-meter-company"
        />
        <Input.Search
          allowClear
          placeholder={t('system.search', '在本页中按名称或编码搜索')}
          value={paging.keyword}
          onChange={(e) => paging.setKeyword(e.target.value)}
          className="meter-search"
          data-testid="system-meter-search"
        />
      </Space>
      {children}
    </Card>
  );
}
