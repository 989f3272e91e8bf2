/** Calls of company settings (docs/api-foundation.md: companies, logo, alert delegations). */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { get, request } from '../../app/http/client';
import { session, useSession } from '../../app/store/session';
import type { CurrentCompany } from '../../app/store/types';
import { uploadImage } from '../../shared/imageFile';
import type { Page } from '../../shared/paging';

export interface Delegation {
  id: number;
  delegateId: number;
  delegateName: string;
  delegatePhone: string;
  createdAt: string;
}

export interface Delegator {
  id: number;
  delegatorId: number;
  delegatorName: string;
  delegatorPhone: string;
  createdAt: string;
}

export interface Member {
  userId: number;
  userName: string;
  phone: string;
  headImgUrl: string | null;
}

export const settingKeys = {
  company: (companyId: number | null | undefined) => ['sysSetting', 'company', companyId] as const,
  delegations: ['sysSetting', 'delegations'] as const,
  delegators: ['sysSetting', 'delegators'] as const,
  members: (keyword: string) => ['sysSetting', 'members', keyword] as const,
};

/** The current company; a fresh copy also updates the stored one (sidebar logo and name). */
export function useCompany() {
  const { user } = useSession();
  const query = useQuery({
    queryKey: settingKeys.company(user?.companyId),
    queryFn: () => get<CurrentCompany>('/company/getCompany'),
    enabled: user?.companyId != null,
  });
  useEffect(() => {
    if (query.data && JSON.stringify(query.data) !== JSON.stringify(session.get().company)) {
      session.set({ company: query.data });
    }
  }, [query.data]);
  return query;
}

export function useDelegations() {
  return useQuery({
    queryKey: settingKeys.delegations,
    queryFn: () => get<Delegation[]>('/company/getAlertDelegations'),
  });
}

export function useDelegators() {
  return useQuery({
    queryKey: settingKeys.delegators,
    queryFn: () => get<Delegator[]>('/company/getAlertDelegatorList'),
  });
}

export function useMembers(keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: settingKeys.members(keyword),
    queryFn: () =>
      get<Page<Member>>('/company/member/getMemberList', {
        pageNum: 1,
        pageSize: 100,
        keyword: keyword || undefined,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

const post = <T>(url: string, data: unknown) => request<T>({ method: 'POST', url, data });

export const settingApi = {
  updateCompany: (body: { name?: string; displayName?: string; timeZone?: string }) =>
    post<null>('/company/updateCompany', body),
  uploadLogo: (file: Blob) =>
    uploadImage<{ logoUrl: string; logoThumbnailUri: string }>('/cos/uploadCompanyLogo', file),
  removeLogo: () => post<null>('/cos/removeCompanyLogo', {}),
  deleteCompany: (id: number, confirmName: string) =>
    post<null>('/company/deleteCompany', { id, confirmName }),
  addDelegate: (delegateId: number) => post<{ id: number }>('/company/addAlertDelegator', { delegateId }),
  deleteDelegation: (id: number) => post<null>('/company/deleteAlertDelegator', { id }),
};

/** cfg is JSON text holding logoThumbnailUri (shown) and logoUri (the original, for preview). */
export function logoOf(company: CurrentCompany | undefined | null): {
  thumb: string | null;
  full: string | null;
} {
  if (!company) return { thumb: null, full: null };
  let cfg: Record<string, unknown> = {};
  if (typeof company.cfg === 'string') {
    try {
      cfg = (JSON.parse(company.cfg) as Record<string, unknown>) ?? {};
    } catch {
      cfg = {};
    }
  } else if (company.cfg) cfg = company.cfg;
  const thumb =
    typeof cfg.logoThumbnailUri === 'string' && cfg.logoThumbnailUri ? cfg.logoThumbnailUri : null;
  const full = typeof cfg.logoUri === 'string' && cfg.logoUri ? cfg.logoUri : null;
  return { thumb: thumb ?? company.logoUrl ?? null, full: full ?? thumb ?? company.logoUrl ?? null };
}
