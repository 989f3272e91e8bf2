/** Calls of document and rich-text templates (docs/api-data-engine.md, "Document templates"). */

import type { DocTemplateRow, DocTemplateView, RenderedDoc } from '@platform/domain';
import { useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import { uploadImage } from '../../shared/imageFile';

export const docKeys = {
  all: ['doctemplates'] as const,
  list: (itemId?: number) => ['doctemplates', 'list', itemId ?? 0] as const,
  one: (id: number) => ['doctemplates', 'one', id] as const,
  render: (id: number, itemId: number, recordId: number) =>
    ['doctemplates', 'render', id, itemId, recordId] as const,
};

/** Templates the caller can read; with an item id, those bound to that item. */
export function useDocTemplates(itemId?: number, enabled = true) {
  return useQuery({
    queryKey: docKeys.list(itemId),
    queryFn: () => get<DocTemplateRow[]>('/smartdata/template/list', itemId ? { itemId } : {}),
    enabled,
    staleTime: itemId ? 30_000 : 0,
  });
}

export function useDocTemplate(id: number) {
  return useQuery({
    queryKey: docKeys.one(id),
    queryFn: () => get<DocTemplateView>('/smartdata/template/get', { id }),
    enabled: Number.isFinite(id) && id > 0,
  });
}

export function useRenderedDoc(id: number, itemId: number, recordId: number) {
  return useQuery({
    queryKey: docKeys.render(id, itemId, recordId),
    queryFn: () => get<RenderedDoc>('/smartdata/template/render', { id, itemId, recordId }),
    enabled: [id, itemId, recordId].every((n) => Number.isFinite(n) && n > 0),
  });
}

export const docApi = {
  save: (body: { id: number; html: string; itemId: number | null }) =>
    request<DocTemplateView>({ method: 'POST', url: '/smartdata/template/save', data: body }),
  /** stores an image for the template's body; answers the URL to use as its src */
  uploadImage: (id: number, file: File) =>
    uploadImage<{ url: string }>(`/smartdata/template/image?id=${id}`, file),
};
