import { FileTextOutlined } from '@ant-design/icons';
import { Empty, Flex, Radio, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { currentLang } from '../../../app/i18n';
import { formatTime } from '../../../shared/time';
import type { FirmwareVersion } from '../api';
import { firmwarePaths } from '../paths';
import { formatSize } from '../states';

interface Props {
  versions: FirmwareVersion[];
  model: string;
  running: string | null;
  selected: number | null;
  onSelect: (id: number) => void;
  disabled?: boolean;
}

/** The notes in the page's language, else in the other one. */
export function notesOf(version: FirmwareVersion): string {
  const [first, second] =
    currentLang() === 'en' ? [version.notesEn, version.notesZh] : [version.notesZh, version.notesEn];
  return first.trim() ? first : second;
}

/** The versions a gateway may take, each with its notes, size and SHA-256; one is chosen. */
export function VersionList({ versions, model, running, selected, onSelect, disabled }: Props) {
  const { t } = useTranslation('firmware');
  if (versions.length === 0)
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('versions.empty', { model })}
        data-testid="fw-versions-empty"
      />
    );
  return (
    <Radio.Group
      className="fw-versions"
      value={selected}
      onChange={(e) => onSelect(e.target.value as number)}
      disabled={disabled}
      data-testid="fw-versions"
    >
      {versions.map((v) => {
        const isRunning = running != null && v.version === running;
        const notes = notesOf(v);
        return (
          // the whole card picks its version; the radio inside is the keyboard's way to it
          // biome-ignore lint/a11y/useKeyWithClickEvents: the radio inside takes the keyboard
          // biome-ignore lint/a11y/noStaticElementInteractions: as above
          <div
            key={v.id}
            onClick={() => {
              if (!disabled && !isRunning) onSelect(v.id);
            }}
            className={`fw-version${selected === v.id ? ' fw-version-selected' : ''}`}
            data-testid={`fw-version-${v.version}`}
          >
            <Flex gap={8} align="center" wrap>
              <Radio value={v.id} disabled={isRunning} aria-label={v.version} />
              <Typography.Text strong className="fw-version-name">
                {v.version}
              </Typography.Text>
              {isRunning ? (
                <Tag color="blue">{t('versions.running')}</Tag>
              ) : v.newer ? (
                <Tag color="green">{t('versions.newer')}</Tag>
              ) : v.newer === false ? (
                <Tag>{t('versions.older')}</Tag>
              ) : null}
              <Typography.Text type="secondary" className="fw-small">
                {formatSize(v.size)} · {formatTime(v.uploadedAt)}
              </Typography.Text>
              <Link to={firmwarePaths.releaseNote(v.version, v.model)} className="fw-small">
                <FileTextOutlined /> {t('versions.releaseNote')}
              </Link>
            </Flex>
            <Typography.Paragraph className="fw-notes" type={notes ? undefined : 'secondary'}>
              {notes || t('versions.noNotes')}
            </Typography.Paragraph>
            <Typography.Text type="secondary" className="fw-small fw-hash" copyable={{ text: v.sha256 }}>
              SHA-256 {v.sha256}
            </Typography.Text>
          </div>
        );
      })}
    </Radio.Group>
  );
}
