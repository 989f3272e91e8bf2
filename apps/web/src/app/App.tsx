/**
 * Providers: antd (locale follows the language), message and notification (feedback.tsx),
 * notification bridge, router. TanStack Query's provider and the modal API come with the pages
 * after login (signedIn.tsx).
 */
import { ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { StrictMode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { BrowserRouter } from 'react-router-dom';
import { Feedback } from './feedback';
import { NotifierBridge } from './http/notifier';
import i18n from './i18n';
import { AppRoutes } from './router/AppRoutes';
import './page.css';

/**
 * Automated browsers (navigator.webdriver) get no motion: a click during an opening animation
 * can miss its target, which makes browser tests flaky on a busy machine. People keep motion.
 */
const THEME = {
  token: {
    colorPrimary: '#1668dc',
    borderRadius: 6,
    motion: typeof navigator === 'undefined' || !navigator.webdriver,
  },
};

function Themed() {
  const { i18n: current } = useTranslation();
  const locale = current.language === 'en' ? enUS : zhCN;
  return (
    <ConfigProvider locale={locale} theme={THEME}>
      <Feedback>
        <NotifierBridge />
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </Feedback>
    </ConfigProvider>
  );
}

export function App() {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <Themed />
      </I18nextProvider>
    </StrictMode>
  );
}
