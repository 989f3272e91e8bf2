import { FileTextOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useDocTemplates } from '../api';
import { renderedDocPath } from '../paths';

/**
 * The "document" action of a record row: shown only when templates are bound to the item; one
 * template opens directly, several in a menu. All rows share one list call (same query key).
 */
export function RecordDocumentAction({
  item,
  recordId,
}: {
  item: { id: number; name: string };
  recordId: number;
}) {
  const { t } = useTranslation('doctemplates');
  const templates = useDocTemplates(item.id);
  const list = templates.data ?? [];
  if (list.length === 0) return null;
  const pathOf = (templateId: number) =>
    renderedDocPath({ itemId: item.id, recordId, itemName: item.name, templateId });
  const label = t('record.document', '文档');
  if (list.length === 1) {
    return (
      <Link to={pathOf(list[0]!.id)} className="dr-link" data-testid={`record-document-${recordId}`}>
        <FileTextOutlined /> {label}
      </Link>
    );
  }
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: list.map((tpl) => ({
          key: String(tpl.id),
          label: (
            <Link to={pathOf(tpl.id)} data-testid={`record-document-${recordId}-${tpl.id}`}>
              {tpl.name}
            </Link>
          ),
        })),
      }}
    >
      <Button
        type="link"
        size="small"
        icon={<FileTextOutlined />}
        data-testid={`record-document-${recordId}`}
      >
        {label}
      </Button>
    </Dropdown>
  );
}
