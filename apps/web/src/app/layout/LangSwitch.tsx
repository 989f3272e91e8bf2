import { TranslationOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ensureLang, type Lang } from '../i18n';
import { LANG_LABELS } from './langLabels';

// antd's Dropdown and Menu come with the first press of the button (fetched ahead when the
// pointer or the focus reaches it), not with the login page; so do the English words
const loadMenu = () => import('./LangMenu');
const LangMenu = lazy(loadMenu);
function preloadMenu(): void {
  const later = () => {
    // the press that needs it shows the failure (or tries the words again)
  };
  loadMenu().catch(later);
  ensureLang('en').catch(later);
}

/** 中文 / English; antd's and dayjs' locale follow, the choice is remembered. */
export function LangSwitch() {
  const { i18n, t } = useTranslation('app');
  const current: Lang = i18n.language === 'en' ? 'en' : 'zh';
  // pressed once: from then on the menu (opened at once on that first press) handles presses
  const [pressed, setPressed] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const hadFocus = useRef(false);

  // the button is drawn again inside the menu once it arrives: keep the keyboard focus on it
  useEffect(() => {
    if (pressed && hadFocus.current) buttonRef.current?.focus();
  });

  const button = (
    <Button
      ref={buttonRef}
      type="text"
      icon={<TranslationOutlined />}
      aria-label={t('navbar.language', '语言')}
      data-testid="lang-switch"
      onMouseEnter={preloadMenu}
      onFocus={() => {
        hadFocus.current = true;
        preloadMenu();
      }}
      onBlur={() => {
        hadFocus.current = false;
      }}
      onClick={() => setPressed(true)}
    >
      <span className="navbar-label">{LANG_LABELS[current]}</span>
    </Button>
  );
  return (
    <Suspense fallback={button}>
      {pressed ? (
        <LangMenu current={current} openAtOnce>
          {button}
        </LangMenu>
      ) : (
        button
      )}
    </Suspense>
  );
}
