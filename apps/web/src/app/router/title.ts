import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import type { RoutesContextValue } from './context';

/** document.title = route title - product title (spec point 2), following the language. */
export function useDocumentTitle(routes: RoutesContextValue): void {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run on a language switch
  useEffect(() => {
    const product = t('menu.productTitle', '智慧数据平台');
    const title = routes.find(pathname)?.entry.meta?.title;
    document.title = title ? `${t(title)} - ${product}` : product;
  }, [routes, pathname, t, i18n.language]);
}
