import { CONFIG_TEMPLATE_IDS, type ConfigTemplateId } from '@platform/domain';
import { Button, Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Shown over an empty canvas: start from a template (the DTU route lists the DTU one first). */
export function TemplatePicker({ dtu, onPick }: { dtu: boolean; onPick: (id: ConfigTemplateId) => void }) {
  const { t } = useTranslation('gatewayconfig');
  const ids = dtu
    ? (['dtu', ...CONFIG_TEMPLATE_IDS.filter((id) => id !== 'dtu')] as const)
    : CONFIG_TEMPLATE_IDS;
  return (
    <div className="gc-templates" data-testid="gc-templates">
      <Typography.Text type="secondary">{t('editor.empty')}</Typography.Text>
      <div className="gc-template-list">
        {ids.map((id) => (
          <Card key={id} size="small" className="gc-template" title={t(`editor.templates.${id}`)}>
            <Typography.Paragraph type="secondary" className="gc-small">
              {t(`editor.templates.${id}Hint`)}
            </Typography.Paragraph>
            <Button type="primary" size="small" onClick={() => onPick(id)} data-testid={`gc-template-${id}`}>
              {t('editor.use')}
            </Button>
          </Card>
        ))}
      </div>
    </div>
  );
}
