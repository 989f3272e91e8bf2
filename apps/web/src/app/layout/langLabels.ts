import type { Lang } from '../i18n';

/** Each language named in itself. */
export const LANG_LABELS: Record<Lang, string> = { zh: '中文', en: 'English' };
