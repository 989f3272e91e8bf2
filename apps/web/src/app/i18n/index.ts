/**
 * i18next set up once: zh by default, en by switch, the choice kept in localStorage under
 * 'lang' (the e2e harness relies on that key). Resources:
 * - the route table's titles (packages/domain/src/routes/locales) in the default namespace,
 *   so `t(route.meta.title)` works everywhere (it is also every namespace's fallback);
 * - app-level strings (src/app/locales) in namespace 'app';
 * - each feature's src/features/<feature>/locales/{zh,en}.json in namespace '<feature>'.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
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
const featureLocales = import.meta.glob<Json>('../../features/*/locales/*.json', {
  eager: true,
  import: 'default',
});

function langOf(file: string): Lang | null {
  const match = /\/(zh|en)\.json$/.exec(file);
  return match ? (match[1] as Lang) : null;
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
  for (const [file, data] of Object.entries(featureLocales)) {
    const lang = langOf(file);
    const feature = /features\/([^/]+)\/locales\//.exec(file)?.[1];
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
  dayjs.locale(lang === 'en' ? 'en' : 'zh-cn');
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

/** Switch language, remember it, and move dayjs along (antd follows via ConfigProvider). */
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
