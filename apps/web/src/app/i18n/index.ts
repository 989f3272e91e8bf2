/**
 * i18next set up once: zh by default, en by switch, the choice kept in localStorage under
 * 'lang' (the e2e harness relies on that key). Words, by namespace:
 * - the default namespace: the route table's titles and the permission codes' names
 *   (packages/domain/src/routes/locales), so `t(route.meta.title)` works everywhere (it is also
 *   every namespace's fallback): here the base routes' and the product's (locales/base), the
 *   others with the pages after login (../signedIn.tsx);
 * - 'app': app-level strings (src/app/locales);
 * - '<feature>': each feature's src/features/<feature>/locales/{zh,en}.json, the login page's
 *   own ('auth') here, the others with the pages after login (../signedIn.tsx).
 * The page loads the default language's words (zh, also the fallback of the other); English
 * ones (./en.ts) load when English is chosen, and before the first render when it is the stored
 * choice (ensureLang, see main.tsx), so the login page does not download both languages.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import routeTitles from '../../../../../packages/domain/src/routes/locales/base/zh.json';
import auth from '../../features/auth/locales/zh.json';
import app from '../locales/zh.json';

export type Lang = 'zh' | 'en';
export const LANGS: readonly Lang[] = ['zh', 'en'];
export const LANG_STORAGE_KEY = 'lang';
export const DEFAULT_NS = 'translation';

type Json = Record<string, unknown>;

function langOf(file: string): Lang | null {
  const match = /\/(zh|en)\.json$/.exec(file);
  return match ? (match[1] as Lang) : null;
}

/**
 * `features/<feature>/locales/<lang>.json` files → namespace '<feature>' of each language;
 * `shared/locales/<lang>.json` (the words of the components pages share) → namespace 'shared'.
 */
export function featureResources(files: Record<string, Json>): Record<Lang, Record<string, Json>> {
  const resources: Record<Lang, Record<string, Json>> = { zh: {}, en: {} };
  for (const [file, data] of Object.entries(files)) {
    const lang = langOf(file);
    const match = /(?:features\/([^/]+)|\/(shared))\/locales\//.exec(file);
    const feature = match?.[1] ?? match?.[2];
    if (lang && feature) resources[lang][feature] = data;
  }
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

const initialLang = storedLang();
applyLang(initialLang);

void i18n.use(initReactI18next).init({
  resources: { zh: { [DEFAULT_NS]: routeTitles, app, auth } },
  lng: initialLang,
  fallbackLng: 'zh',
  supportedLngs: LANGS,
  ns: [DEFAULT_NS, 'app', 'auth'],
  defaultNS: DEFAULT_NS,
  fallbackNS: DEFAULT_NS,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

export function currentLang(): Lang {
  return i18n.language === 'en' ? 'en' : 'zh';
}

const loading = new Map<Lang, Promise<void>>();

/**
 * The words of `lang` the page starts with (the base routes' titles, the app's and the login page's),
 * loaded once: zh comes with the page, en from ./en.ts. A failed load is tried again next time.
 */
export function ensureLang(lang: Lang): Promise<void> {
  if (lang === 'zh') return Promise.resolve();
  let pending = loading.get(lang);
  if (!pending) {
    pending = import('./en').then(({ words }) => {
      for (const [ns, data] of Object.entries(words)) i18n.addResourceBundle(lang, ns, data, true, true);
    });
    pending.catch(() => loading.delete(lang));
    loading.set(lang, pending);
  }
  return pending;
}

/**
 * Switch language and remember it (antd follows via ConfigProvider, dayjs via the
 * languageChanged event, see ../signedIn.tsx). False, and nothing switched, when the words of
 * `lang` could not be loaded.
 */
export async function setLang(lang: Lang): Promise<boolean> {
  try {
    await ensureLang(lang);
  } catch {
    return false;
  }
  try {
    window.localStorage.setItem(LANG_STORAGE_KEY, lang);
  } catch {
    // not remembered, still switched
  }
  applyLang(lang);
  await i18n.changeLanguage(lang);
  return true;
}

export default i18n;
