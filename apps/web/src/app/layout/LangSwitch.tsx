import { TranslationOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../i18n';
import { LANG_LABELS } from './langLabels';

// antd's Dropdown and Menu come when the button is approached, not with the login page
const LangMenu = lazy(() => import('./LangMenu'));

type MenuState = 'none' | 'load' | 'open';

/** 中文 / English; antd's and dayjs' locale follow, the choice is remembered. */
export function LangSwitch() {
  const { i18n, t } = useTranslation('app');
  const current: Lang = i18n.language === 'en' ? 'en' : 'zh';
  const [menu, setMenu] = useState<MenuState>('none');
  const buttonRef = useRef<HTMLButtonElement>(null);
  const hadFocus = useRef(false);
  const approach = () => setMenu((now) => (now === 'none' ? 'load' : now));

  // the button is drawn again inside the menu once it arrives: keep the keyboard focus on it
  useEffect(() => {
    if (menu !== 'none' && hadFocus.current) buttonRef.current?.focus();
  });

  const button = (
    <Button
      ref={buttonRef}
      type="text"
      icon={<TranslationOutlined />}
      aria-label={t('navbar.language', '语言')}
      data-testid="lang-switch"
      onMouseEnter={approach}
      onFocus={() => {
        hadFocus.current = true;
        approach();
      }}
      onBlur={() => {
        hadFocus.current = false;
      }}
      onClick={() => setMenu((now) => (now === 'none' || now === 'load' ? 'open' : now))}
    >
      <span className="navbar-label">{LANG_LABELS[current]}</span>
    </Button>
  );
  return (
    <Suspense fallback={button}>
      {menu === 'none' ? (
        button
      ) : (
        <LangMenu current={current} openAtOnce={menu === 'open'}>
          {button}
        </LangMenu>
      )}
    </Suspense>
  );
}
