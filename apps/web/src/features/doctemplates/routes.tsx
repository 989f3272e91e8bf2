import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Document and rich-text templates (sd_capsule): the template list and editor (Doctemplate,
 * `?edit=<node id>` opens the editor) and a template filled with one record (richEditorTemplate).
 */
export const pages: PageMap = {
  docTemplate: lazy(() => import('./pages/DocTemplatePage')),
  richEditorTemplate: lazy(() => import('./pages/RenderedDocPage')),
};
