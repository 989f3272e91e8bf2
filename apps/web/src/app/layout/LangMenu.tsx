/**
 * The language menu around the language button (antd Dropdown and Menu, ~10 kB gzip): loaded
 * by LangSwitch on the button's first press (fetched ahead when the pointer or the focus
 * reaches it), so the login page does not wait for it. `openAtOnce`: open on arrival, for the
 * press that brought it.
 */
import { Dropdown } from 'antd';
import { type ReactElement, useState } from 'react';
import { type Lang, setLang } from '../i18n';
import { LANG_LABELS } from './langLabels';

export default function LangMenu({
  current,
  openAtOnce,
  children,
}: {
  current: Lang;
  openAtOnce: boolean;
  children: ReactElement;
}) {
  const [open, setOpen] = useState(openAtOnce);
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: (Object.keys(LANG_LABELS) as Lang[]).map((lang) => ({
          key: lang,
          label: <span data-testid={`lang-${lang}`}>{LANG_LABELS[lang]}</span>,
        })),
        onClick: ({ key }) => {
          setOpen(false);
          void setLang(key as Lang);
        },
      }}
    >
      {children}
    </Dropdown>
  );
}
