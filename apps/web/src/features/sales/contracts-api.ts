/**
 * Calls of the contract pages (/general/sales/contract, code ss_sale_contract): contract
 * templates and contracts made from an order.
 */
import type { ContractStatus, SalesStatus } from '@platform/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import { downloadFile } from '../../app/http/download';
import { currentLang } from '../../app/i18n';
import type { Page, Paging } from '../../shared/paging';

export interface ContractTemplateRow {
  id: number;
  name: string;
  updatedAt: string;
}

export interface ContractTemplate extends ContractTemplateRow {
  html: string;
}

export interface Contract {
  id: number;
  number: string;
  orderId: number;
  orderNumber: string;
  customer: string;
  totalCents: number;
  orderStatus: SalesStatus;
  templateId: number | null;
  templateName: string;
  status: ContractStatus;
  signedOn: string | null;
  createdAt: string;
}

export interface ContractQuery {
  keyword: string;
  status?: ContractStatus;
  orderId?: number;
}

export const contractKeys = {
  all: ['sales', 'contracts'] as const,
  templates: ['sales', 'contracts', 'templates'] as const,
  template: (id: number) => ['sales', 'contracts', 'template', id] as const,
  starter: (lang: string) => ['sales', 'contracts', 'starter', lang] as const,
  list: (query: Paging & ContractQuery) => ['sales', 'contracts', 'list', query] as const,
  one: (id: number) => ['sales', 'contracts', 'one', id] as const,
};

export function useContractTemplates() {
  return useQuery({
    queryKey: contractKeys.templates,
    queryFn: () => get<ContractTemplateRow[]>('/sales/contract/template/list'),
  });
}

export function useContractTemplate(id: number | null) {
  return useQuery({
    queryKey: contractKeys.template(id ?? 0),
    queryFn: () => get<ContractTemplate>('/sales/contract/template/get', { id }),
    enabled: id != null,
    retry: false,
  });
}

/** A new template's body (a plain contract in the page's language) and the placeholders to insert. */
export function useContractStarter() {
  const lang = currentLang();
  return useQuery({
    queryKey: contractKeys.starter(lang),
    queryFn: () =>
      get<{ html: string; fields: Array<{ key: string; label: string }> }>(
        '/sales/contract/template/starter',
      ),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function contractParams(query: ContractQuery): Record<string, string | number> {
  const keyword = query.keyword.trim();
  return {
    ...(keyword ? { keyword } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.orderId ? { orderId: query.orderId } : {}),
  };
}

export function useContracts(query: Paging & ContractQuery, enabled = true) {
  return useQuery({
    queryKey: contractKeys.list(query),
    queryFn: () =>
      get<Page<Contract>>('/sales/contract/list', {
        pageNum: query.pageNum,
        pageSize: query.pageSize,
        sortField: query.sortField,
        sortOrder: query.sortOrder,
        ...contractParams(query),
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useContract(id: number | null) {
  return useQuery({
    queryKey: contractKeys.one(id ?? 0),
    queryFn: () => get<Contract & { html: string }>('/sales/contract/get', { id }),
    enabled: id != null,
    retry: false,
  });
}

const post = <T>(url: string, data: unknown) => request<T>({ method: 'POST', url, data });

export const contractApi = {
  saveTemplate: (body: { id?: number; name: string; html: string }) =>
    post<ContractTemplate>('/sales/contract/template/save', body),
  deleteTemplate: (id: number) => post<null>('/sales/contract/template/delete', { id }),
  create: (orderId: number, templateId: number) =>
    post<Contract & { html: string }>('/sales/contract/create', { orderId, templateId }),
  sign: (id: number, signedOn?: string) => post<Contract>('/sales/contract/sign', { id, signedOn }),
  remove: (id: number) => post<null>('/sales/contract/delete', { id }),
  download: (contract: Pick<Contract, 'id' | 'number'>) =>
    downloadFile('/sales/contract/document', { id: contract.id }, `${contract.number}.doc`),
};
