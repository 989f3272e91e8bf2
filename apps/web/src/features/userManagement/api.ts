/** Calls of user management (docs/api-foundation.md: users, roles, groups, members). */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import type { Page, Paging } from '../../shared/paging';

export interface SysUser {
  userId: number;
  userName: string;
  phone: string;
  /** the account: 1 enabled, 0 disabled */
  status: number;
  /**
   * active, or invited (has not answered yet; roleIds are the roles they will get, userName the
   * name given when adding them, status always 1: their account is not shown before they agree)
   */
  memberStatus: 'active' | 'invited';
  roleIds: number[];
  roleNames: string[];
  joinedAt: string | null;
}

export interface Member {
  userId: number;
  userName: string;
  phone: string;
  headImgUrl: string | null;
}

export interface Role {
  id: number;
  name: string;
  description: string | null;
  /** 1 administrator, 2 ordinary user */
  roleType: number;
  menuCodes: string[];
  builtin: boolean;
  userCount: number;
}

export interface Group {
  id: number;
  name: string;
  description: string | null;
  memberCount: number;
  ownerId: number | null;
}

export interface GroupMember {
  userId: number;
  userName: string;
  phone: string;
}

export const ROLE_TYPES = [1, 2] as const;

export const umKeys = {
  users: (paging: Paging, keyword: string) => ['userManagement', 'users', paging, keyword] as const,
  usersAll: ['userManagement', 'users'] as const,
  members: (keyword: string) => ['userManagement', 'members', keyword] as const,
  roles: ['userManagement', 'roles'] as const,
  menuCodes: ['userManagement', 'menuCodes'] as const,
  groups: (paging: Paging, keyword: string) => ['userManagement', 'groups', paging, keyword] as const,
  groupsAll: ['userManagement', 'groups'] as const,
  groupMembers: (groupId: number) => ['userManagement', 'groupMembers', groupId] as const,
};

export function useSysUsers(paging: Paging, keyword: string) {
  return useQuery({
    queryKey: umKeys.users(paging, keyword),
    queryFn: () => get<Page<SysUser>>('/user/getSysUserList', { ...paging, keyword: keyword || undefined }),
    placeholderData: keepPreviousData,
  });
}

/** Active members of the current company, for pickers (first 100 matching the keyword). */
export function useMembers(keyword: string, enabled = true) {
  return useQuery({
    queryKey: umKeys.members(keyword),
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

/**
 * Roles for the role pickers and the role page. Listing roles needs um_role; a person with
 * um_user alone still manages users, without the picker, so this call stays quiet.
 */
export function useRoles(opts: { silent?: boolean } = {}) {
  return useQuery({
    queryKey: umKeys.roles,
    queryFn: () => get<Role[]>('/role/getRoleList', undefined, { silent: opts.silent }),
  });
}

export function useMenuCodes() {
  return useQuery({
    queryKey: umKeys.menuCodes,
    queryFn: () => get<string[]>('/role/getMenuCodes'),
    staleTime: 5 * 60_000,
  });
}

export function useGroups(paging: Paging, keyword: string) {
  return useQuery({
    queryKey: umKeys.groups(paging, keyword),
    queryFn: () =>
      get<Page<Group>>('/company/group/getGroupList', { ...paging, keyword: keyword || undefined }),
    placeholderData: keepPreviousData,
  });
}

export function useGroupMembers(groupId: number | null) {
  return useQuery({
    queryKey: umKeys.groupMembers(groupId ?? 0),
    queryFn: () => get<GroupMember[]>('/company/group/getGroupMembers', { groupId }),
    enabled: groupId != null,
  });
}

const post = <T>(url: string, data: unknown) => request<T>({ method: 'POST', url, data });

export const umApi = {
  /** invites the person; the same answer whether or not the phone has an account */
  addSysUser: (body: { phone: string; userName: string; roleIds: number[] }) =>
    post<null>('/user/addSysUser', body),
  updateSysUser: (body: { userId: number; userName?: string; status?: number; roleIds?: number[] }) =>
    post<null>('/user/updateSysUser', body),
  removeSysUser: (userId: number) => post<null>('/user/removeSysUser', { userId }),

  addRole: (body: { name: string; description?: string; roleType: number; menuCodes: string[] }) =>
    post<{ id: number }>('/role/addRole', body),
  updateRole: (body: {
    id: number;
    name?: string;
    description?: string;
    roleType?: number;
    menuCodes?: string[];
  }) => post<null>('/role/updateRole', body),
  deleteRole: (id: number) => post<null>('/role/deleteRole', { id }),

  addGroup: (body: { name: string; description?: string }) =>
    post<{ id: number }>('/company/group/addGroup', body),
  deleteGroup: (id: number) => post<null>('/company/group/deleteGroup', { id }),
  /** query-string parameters (spec point 7): groupId, and userIds as JSON array text */
  addUserToGroup: (groupId: number, userIds: number[]) =>
    request<null>({
      method: 'POST',
      url: '/company/group/addUserToGroup',
      params: { groupId, userIds },
      data: {},
    }),
  removeUserFromGroup: (groupId: number, userId: number) =>
    post<null>('/company/group/removeUserFromGroup', { groupId, userId }),
  quitUserGroup: (groupId: number) =>
    request<null>({ method: 'POST', url: '/company/group/quitUserGroup', params: { groupId }, data: {} }),
};
