/** Calls of the personal center (docs/api-foundation.md: current user, companies, invitations, orders). */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import { useSession } from '../../app/store/session';
import { uploadImage } from '../../shared/imageFile';
import type { Page, Paging } from '../../shared/paging';

export interface MyOrder {
  id: number;
  orderNo: string;
  productName: string;
  swProductId: number;
  subTypeId: number;
  amountCents: number;
  /** paid | cancelled | refunded */
  status: string;
  startsAt: string;
  endsAt: string;
  createdAt: string;
}

export interface MyAssignment {
  id: number;
  name: string;
  status: string;
  dueAt: string | null;
}

export interface MyCompany {
  id: number;
  name: string;
  displayName: string;
  logoUrl: string | null;
  current: boolean;
}

export interface Invitation {
  companyId: number;
  companyName: string;
  invitedBy: string | null;
  createdAt: string;
}

export const userKeys = {
  orders: (paging: Paging) => ['user', 'orders', paging] as const,
  assignments: (paging: Paging) => ['user', 'assignments', paging] as const,
  companies: ['user', 'companies'] as const,
  invitations: ['user', 'invitations'] as const,
};

export function useMyOrders(paging: Paging) {
  return useQuery({
    queryKey: userKeys.orders(paging),
    queryFn: () => get<Page<MyOrder>>('/order/getMyOrders', { ...paging }),
    placeholderData: keepPreviousData,
  });
}

export function useMyAssignments(paging: Paging) {
  return useQuery({
    queryKey: userKeys.assignments(paging),
    queryFn: () => get<Page<MyAssignment>>('/user/getMyAssignments', { ...paging }),
    placeholderData: keepPreviousData,
  });
}

export function useMyCompanies() {
  const { user } = useSession();
  return useQuery({
    // the user record changes when a company is joined, created or switched
    queryKey: [...userKeys.companies, user?.companyId, user?.companies?.length],
    queryFn: () => get<MyCompany[]>('/company/getCompanyList'),
  });
}

export function useMyInvitations() {
  return useQuery({
    queryKey: userKeys.invitations,
    queryFn: () => get<Invitation[]>('/company/member/getMyInvitations'),
  });
}

export const userApi = {
  updateUser: (body: { userName?: string; email?: string | null }) =>
    request<unknown>({ method: 'POST', url: '/user/updateUser', data: body }),
  updatePassword: (body: { oldPassword: string; password: string }) =>
    request<null>({ method: 'POST', url: '/user/updatePassword', data: body }),
  uploadAvatar: (file: Blob) =>
    uploadImage<{ headImgUrl: string; thumbnailUrl: string }>('/cos/uploadAvatar', file),
  removeAvatar: () => request<null>({ method: 'POST', url: '/cos/removeAvatar', data: {} }),
  addCompany: (name: string) =>
    request<{ id: number }>({ method: 'POST', url: '/company/addCompany', data: { name } }),
  switchCompany: (companyId: number) =>
    request<null>({ method: 'POST', url: '/company/switchCompany', data: { companyId } }),
  agreeInvitation: (companyId: number) =>
    request<null>({ method: 'GET', url: '/company/member/agreeInvitation', params: { companyId } }),
  refuseInvitation: (companyId: number) =>
    request<null>({ method: 'GET', url: '/company/member/refuseInvitation', params: { companyId } }),
};
