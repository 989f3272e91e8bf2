import { ArrowLeftOutlined, EditOutlined, PrinterOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Skeleton, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ZoneHint } from '../../../shared/ZoneHint';
import { useRenderedDoc } from '../api';
import { docTemplateEditPath } from '../paths';
import '../doctemplates.css';

/**
 * /smartdata/richEditorTemplate/:itemId/:valueId/:itemName/:objId: the template objId filled
 * with the values of record valueId of item itemId, ready to print. The HTML comes from the
 * server: the template body was sanitised on save and every value is escaped when filling.
 */
export default function RenderedDocPage() {
  const { t } = useTranslation('doctemplates');
  const navigate = useNavigate();
  const params = useParams();
  const itemId = Number(params.itemId);
  const recordId = Number(params.valueId);
  const templateId = Number(params.objId);
  const doc = useRenderedDoc(templateId, itemId, recordId);

  if (doc.isError) {
    return (
      <Card variant="borderless" data-testid="rendered-doc-page">
        <Alert type="error" showIcon title={t('render.loadFailed', '无法打开此模板或数据')} />
      </Card>
    );
  }
  if (!doc.data) {
    return (
      <Card variant="borderless" data-testid="rendered-doc-page">
        <Skeleton active />
      </Card>
    );
  }
  const data = doc.data;
  return (
    <Card
      variant="borderless"
      className="dt-rendered-card"
      data-testid="rendered-doc-page"
      title={
        <Space size={8} wrap>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            aria-label={t('render.back', '返回')}
            onClick={() => navigate(-1)}
          />
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="rendered-doc-title">
            {data.name}
          </Typography.Title>
          <Tag>{data.itemName}</Tag>
          <span className="dt-muted" data-testid="rendered-doc-time">
            {t('render.recordAt', '数据时间 {{time}}', {
              time: data.tsText,
            })}
            <ZoneHint full zone={data.timeZone} />
          </span>
        </Space>
      }
      extra={
        <Space>
          <Button icon={<EditOutlined />} onClick={() => navigate(docTemplateEditPath(data.id))}>
            {t('render.editTemplate', '编辑模板')}
          </Button>
          <Button
            type="primary"
            icon={<PrinterOutlined />}
            onClick={() => window.print()}
            data-testid="rendered-doc-print"
          >
            {t('render.print', '打印')}
          </Button>
        </Space>
      }
    >
      <div className={`dt-print-area ${data.type === 'docTemplate' ? 'dt-paper' : 'dt-rich'}`}>
        {/* sanitised on save, values escaped by the server's renderer */}
        <div
          className="dt-doc-body"
          data-testid="rendered-doc-body"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: server-sanitised template with escaped values
          dangerouslySetInnerHTML={{ __html: data.html }}
        />
      </div>
    </Card>
  );
}
