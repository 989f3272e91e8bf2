/**
 * Calls of system maintenance's device-family templates (systemnss3dfw, system_nss3dfw, the
 * platform operator's): the list with how many devices use each, one template with its drawing,
 * save (create without id) and delete. docs/configuration-screens.md, issue 13 point 7.
 */
import type { FamilyRole, ScreenBody } from '@platform/domain';
import { useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';

const BASE = '/system/flowchart/template';

export interface TemplateSummary {
  id: number;
  code: string;
  name: { zh: string; en: string };
  roles: FamilyRole[];
  /** as the platform put it there, never edited */
  builtin: boolean;
  /** devices whose flow chart it is */
  devices: number;
  updatedAt: string;
}

export interface TemplateFull {
  id: number;
  code: string;
  name: { zh: string; en: string };
  roles: FamilyRole[];
  builtin: boolean;
  /** bindings name roles: itemId = the role's number, field f1 */
  body: ScreenBody;
  version: number;
}

export interface TemplateInput {
  id?: number;
  /** the version opened: the server refuses the replace when someone saved since */
  version?: number;
  code: string;
  name: { zh: string; en: string };
  roles: FamilyRole[];
  body: ScreenBody;
}

export const templateKeys = {
  all: ['flowchart-templates'] as const,
  list: () => ['flowchart-templates', 'list'] as const,
  one: (id: number) => ['flowchart-templates', 'one', id] as const,
};

export function useTemplateList() {
  return useQuery({
    queryKey: templateKeys.list(),
    queryFn: () => get<TemplateSummary[]>(`${BASE}/list`, undefined, { silent: true }),
  });
}

export function useTemplate(id: number | null) {
  return useQuery({
    queryKey: templateKeys.one(id ?? 0),
    queryFn: () => get<TemplateFull>(BASE, { id }, { silent: true }),
    enabled: id !== null && Number.isInteger(id) && id > 0,
    retry: false,
    // the editor keeps its own copy: a refetch in the background would not reach it
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export const templatesApi = {
  /** refusals are shown by the page (on the field they name) */
  save: (input: TemplateInput) =>
    request<{ id: number; version: number }>({
      method: 'POST',
      url: `${BASE}/save`,
      data: input,
      silent: true,
    }),
  remove: (id: number) =>
    request<null>({ method: 'POST', url: `${BASE}/delete`, data: { id }, silent: true }),
};
