/**
 * i18next set up once: zh by default, en by switch, the choice kept in localStorage under
 * 'lang' (the e2e harness relies on that key). Resources:
 * - the route table's titles (packages/domain/src/routes/locales) in the default namespace,
 *   so `t(route.meta.title)` works everywhere (it is also every namespace's fallback);
 * - app-level strings (src/app/locales) in namespace 'app';
 * - each feature's src/features/<feature>/locales/{zh,en}.json in namespace '<feature>': the
 *   login page's own ('auth') here, the others with what the pages after login need
 *   (../signedIn.tsx), so the login page does not download every page's words.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

export type Lang = 'zh' | 'en';
export const LANGS: readonly Lang[] = ['zh', 'en'];
export const LANG_STORAGE_KEY = 'lang';
export const DEFAULT_NS = 'translation';

type Json = Record<string, unknown>;

const routeLocales = import.meta.glob<Json>('../../../../../packages/domain/src/routes/locales/*.json', {
  eager: true,
  import: 'default',
});
const appLocales = import.meta.glob<Json>('../locales/*.json', { eager: true, import: 'default' });
const loginLocales = import.meta.glob<Json>('../../features/auth/locales/*.json', {
  eager: true,
  import: 'default',
});

function langOf(file: string): Lang | null {
  const match = /\/(zh|en)\.json$/.exec(file);
  return match ? (match[1] as Lang) : null;
}

/** `features/<feature>/locales/<lang>.json` files → namespace '<feature>' of each language. */
export function featureResources(files: Record<string, Json>): Record<Lang, Record<string, Json>> {
  const resources: Record<Lang, Record<string, Json>> = { zh: {}, en: {} };
  for (const [file, data] of Object.entries(files)) {
    const lang = langOf(file);
    const feature = /features\/([^/]+)\/locales\//.exec(file)?.[1];
    if (lang && feature) resources[lang][feature] = data;
  }
  return resources;
}

function buildResources(): Record<Lang, Record<string, Json>> {
  const resources: Record<Lang, Record<string, Json>> = { zh: {}, en: {} };
  for (const [file, data] of Object.entries(routeLocales)) {
    const lang = langOf(file);
    if (lang) resources[lang][DEFAULT_NS] = data;
  }
  for (const [file, data] of Object.entries(appLocales)) {
    const lang = langOf(file);
    if (lang) resources[lang].app = data;
  }
  const login = featureResources(loginLocales);
  for (const lang of LANGS) Object.assign(resources[lang], login[lang]);
  return resources;
}

export function storedLang(): Lang {
  try {
    const value = window.localStorage.getItem(LANG_STORAGE_KEY);
    return value === 'en' ? 'en' : 'zh';
  } catch {
    return 'zh';
  }
}

function applyLang(lang: Lang): void {
  document.documentElement.lang = lang === 'en' ? 'en' : 'zh-CN';
}

const resources = buildResources();
const initialLang = storedLang();
applyLang(initialLang);

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLang,
  fallbackLng: 'zh',
  supportedLngs: LANGS,
  ns: Object.keys(resources.zh).concat(DEFAULT_NS),
  defaultNS: DEFAULT_NS,
  fallbackNS: DEFAULT_NS,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

export function currentLang(): Lang {
  return i18n.language === 'en' ? 'en' : 'zh';
}

/**
 * Switch language and remember it (antd follows via ConfigProvider, dayjs via the
 * languageChanged event, see ../signedIn.tsx).
 */
export async function setLang(lang: Lang): Promise<void> {
  try {
    window.localStorage.setItem(LANG_STORAGE_KEY, lang);
  } catch {
    // not remembered, still switched
  }
  applyLang(lang);
  await i18n.changeLanguage(lang);
}

export default i18n;
