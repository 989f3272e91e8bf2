import { TranslationOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { type Lang, setLang } from '../i18n';

const LABELS: Record<Lang, string> = { zh: '中文', en: 'English' };

/** 中文 / English; antd's and dayjs' locale follow, the choice is remembered. */
export function LangSwitch() {
  const { i18n, t } = useTranslation('app');
  const current: Lang = i18n.language === 'en' ? 'en' : 'zh';
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: (Object.keys(LABELS) as Lang[]).map((lang) => ({
          key: lang,
          label: <span data-testid={`lang-${lang}`}>{LABELS[lang]}</span>,
        })),
        onClick: ({ key }) => void setLang(key as Lang),
      }}
    >
      <Button
        type="text"
        icon={<TranslationOutlined />}
        aria-label={t('navbar.language', '语言')}
        data-testid="lang-switch"
      >
        <span className="navbar-label">{LABELS[current]}</span>
      </Button>
    </Dropdown>
  );
}
