/**
 * What the pages after login need and the login page does not, in one chunk loaded once a
 * token is present (the routes after login wait for it, see router/AppRoutes.tsx):
 * - the words of every feature but the login page's own (i18n/index.ts has those);
 * - dayjs with its zh-cn and en locales, following the language;
 * - TanStack Query's provider.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import type { ReactNode } from 'react';
import i18n, { currentLang, featureResources, LANGS } from './i18n';
import { queryClient } from './query';

const files = import.meta.glob<Record<string, unknown>>(
  ['../features/*/locales/*.json', '!../features/auth/locales/*.json'],
  { eager: true, import: 'default' },
);
const resources = featureResources(files);
for (const lang of LANGS) {
  for (const [ns, data] of Object.entries(resources[lang]))
    i18n.addResourceBundle(lang, ns, data, true, true);
}

function followLanguage(lang: string): void {
  dayjs.locale(lang === 'en' ? 'en' : 'zh-cn');
}
followLanguage(currentLang());
i18n.on('languageChanged', followLanguage);

export function SignedIn({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
