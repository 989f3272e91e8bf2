/**
 * What the pages after login need and the login page does not, in one chunk loaded once a
 * token is present (the routes after login wait for it, see router/AppRoutes.tsx):
 * - the route table's routes after login (ASYNC_ROUTES, filtered by router/permitted.ts) and
 *   every feature's pages but the login page's (router/registry.ts), registered as this loads;
 * - the words of every feature but the login page's own (i18n/index.ts has those), the titles
 *   of the routes after login and the permission codes' names;
 * - dayjs with its zh-cn and en locales, following the language;
 * - TanStack Query's provider;
 * - the modal half of antd's App context (confirmations), see feedback.tsx.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { Modal } from 'antd';
import AppContext, { type useAppProps } from 'antd/es/app/context';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import { type ReactNode, useContext, useMemo } from 'react';
import enRoutes from '../../../../packages/domain/src/routes/locales/en.json';
import zhRoutes from '../../../../packages/domain/src/routes/locales/zh.json';
import i18n, { currentLang, DEFAULT_NS, featureResources, LANGS } from './i18n';
import { queryClient } from './query';
import { type FeatureRoutesModule, registerPages } from './router/registry';

export { ASYNC_ROUTES } from '@platform/domain/routes/table';

registerPages(
  import.meta.glob<FeatureRoutesModule>(['../features/*/routes.tsx', '!../features/auth/routes.tsx'], {
    eager: true,
  }),
);

const files = import.meta.glob<Record<string, unknown>>(
  ['../features/*/locales/*.json', '!../features/auth/locales/*.json', '../shared/locales/*.json'],
  { eager: true, import: 'default' },
);
const resources = featureResources(files);
resources.zh[DEFAULT_NS] = zhRoutes;
resources.en[DEFAULT_NS] = enRoutes;
for (const lang of LANGS) {
  for (const [ns, data] of Object.entries(resources[lang]))
    i18n.addResourceBundle(lang, ns, data, true, true);
}

function followLanguage(lang: string): void {
  dayjs.locale(lang === 'en' ? 'en' : 'zh-cn');
}
followLanguage(currentLang());
i18n.on('languageChanged', followLanguage);

/** `modal` added to the App context <Feedback> fills, as antd's <App> would hold it. */
function ModalFeedback({ children }: { children: ReactNode }) {
  const outer = useContext(AppContext);
  const [modal, modalHolder] = Modal.useModal();
  const value = useMemo<useAppProps>(() => ({ ...outer, modal }), [outer, modal]);
  return (
    <AppContext.Provider value={value}>
      {modalHolder}
      {children}
    </AppContext.Provider>
  );
}

export function SignedIn({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ModalFeedback>{children}</ModalFeedback>
    </QueryClientProvider>
  );
}
