/**
 * /releaseNote/:version/:typeId (dm_list) — a firmware version's release notes in the page's
 * language (the other language's beside them), its date, size and SHA-256. The typeId is the
 * gateway model the version is for.
 */
import { Card, Descriptions, Result, Spin, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { currentLang } from '../../../app/i18n';
import { formatTime } from '../../../shared/time';
import { useReleaseNote } from '../api';
import { param } from '../paths';
import { formatSize } from '../states';
import '../firmware.css';

export default function ReleaseNotePage() {
  const { t } = useTranslation('firmware');
  const params = useParams();
  const version = param(params.version);
  const model = param(params.typeId);
  const note = useReleaseNote(version, model);
  if (!version || !model) return <Result status="404" title={t('page.badLink')} />;
  if (note.isLoading) return <Spin className="fw-loading" />;
  if (!note.data)
    return (
      <Result
        status="404"
        title={t('releaseNote.notFound', { version, model })}
        data-testid="fw-note-missing"
      />
    );
  const v = note.data;
  const zh = { key: 'zh', label: '中文', text: v.notesZh };
  const en = { key: 'en', label: 'English', text: v.notesEn };
  const tabs = currentLang() === 'en' ? [en, zh] : [zh, en];
  return (
    <Card
      variant="borderless"
      className="fw-page"
      title={`${t('releaseNote.title')} · ${v.model} ${v.version}`}
      data-testid="fw-release-note"
    >
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 3 }}
        items={[
          { key: 'version', label: t('fields.version'), children: v.version },
          { key: 'model', label: t('fields.model'), children: v.model },
          { key: 'date', label: t('releaseNote.date'), children: formatTime(v.uploadedAt) },
          { key: 'size', label: t('fields.size'), children: `${formatSize(v.size)} (${v.size} B)` },
          { key: 'file', label: t('fields.fileName'), children: v.fileName },
          {
            key: 'sha',
            label: t('fields.sha256'),
            children: (
              <Typography.Text className="fw-mono fw-hash" copyable data-testid="fw-note-sha">
                {v.sha256}
              </Typography.Text>
            ),
          },
        ]}
      />
      <Tabs
        items={tabs.map((tab) => ({
          key: tab.key,
          label: tab.label,
          children: (
            <Typography.Paragraph
              className="fw-notes"
              type={tab.text.trim() ? undefined : 'secondary'}
              data-testid={`fw-note-${tab.key}`}
            >
              {tab.text.trim() ? tab.text : t('versions.noNotes')}
            </Typography.Paragraph>
          ),
        }))}
      />
    </Card>
  );
}
