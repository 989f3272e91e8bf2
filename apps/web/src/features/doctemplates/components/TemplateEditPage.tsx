import { ArrowLeftOutlined, FieldTimeOutlined, SaveOutlined } from '@ant-design/icons';
import { FIELD_TYPE_NAMES, type FieldDef, TEMPLATE_TS_KEY } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Form, Skeleton, Space, Tag, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { formatMinute } from '../../../shared/time';
import { useDataItem } from '../../datacabin/api';
import { ItemPicker } from '../../datacabin/components/ItemPicker';
import { docApi, docKeys, useDocTemplate } from '../api';
import { DOC_TEMPLATE_PATH } from '../paths';
import { relabel } from './fieldChip';
import { TemplateEditor } from './TemplateEditor';

type Insert = (field: string, label: string) => void;

/** One template in the editor: the bound item, its fields to insert, the body, save. */
export function TemplateEditPage({ id }: { id: number }) {
  const { t } = useTranslation('doctemplates');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const template = useDocTemplate(id);
  const [itemId, setItemId] = useState<number | null | undefined>(undefined);
  const [html, setHtml] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const insertRef = useRef<Insert | null>(null);

  const data = template.data;
  const boundId = itemId === undefined ? (data?.itemId ?? null) : itemId;
  const item = useDataItem(boundId ?? 0);
  const fields: FieldDef[] = boundId != null ? (item.data?.fields ?? []) : [];
  const canWrite = (data?.level ?? 0) >= 2;

  // the stored body, once, with placeholder labels refreshed from the bound item's current
  // field names (waits for the fields); later edits live in the editor
  const [initialHtml, setInitialHtml] = useState<string | null>(null);
  const [savedHtml, setSavedHtml] = useState<string | null>(null);
  useEffect(() => {
    if (initialHtml !== null || !data) return;
    if (data.itemId != null && !item.data && !item.isError) return;
    const labels = new Map<string, string>([[TEMPLATE_TS_KEY, t('editor.recordTime', '记录时间')]]);
    for (const f of item.data?.id === data.itemId ? (item.data?.fields ?? []) : []) labels.set(f.key, f.name);
    const start = relabel(data.html, labels);
    setInitialHtml(start);
    setSavedHtml(start);
  }, [data, item.data, item.isError, initialHtml, t]);

  const onReady = useCallback((insert: Insert) => {
    insertRef.current = insert;
  }, []);

  const uploadImage = useCallback(
    async (file: File) => {
      try {
        return (await docApi.uploadImage(id, file)).data.url;
      } catch {
        // the http client showed the error
        return null;
      }
    },
    [id],
  );

  const dirty = (html !== null && html !== savedHtml) || (itemId !== undefined && itemId !== data?.itemId);

  const save = async () => {
    if (!data) return;
    setSaving(true);
    try {
      const body = html ?? savedHtml ?? '';
      const envelope = await docApi.save({ id, html: body, itemId: boundId });
      message.success(envelope.message);
      setSavedHtml(body);
      queryClient.setQueryData(docKeys.one(id), envelope.data);
      await queryClient.invalidateQueries({ queryKey: ['doctemplates', 'list'] });
      setItemId(undefined);
      setHtml(null);
    } catch {
      // the http client showed the error (it names the field)
    } finally {
      setSaving(false);
    }
  };

  if (template.isError) {
    return (
      <Card variant="borderless" data-testid="doc-editor-page">
        <Alert type="error" showIcon title={t('editor.loadFailed', '无法加载模板')} />
      </Card>
    );
  }
  if (!data || initialHtml === null) {
    return (
      <Card variant="borderless" data-testid="doc-editor-page">
        <Skeleton active />
      </Card>
    );
  }

  return (
    <Card
      variant="borderless"
      data-testid="doc-editor-page"
      title={
        <Space size={8} wrap>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            aria-label={t('editor.back', '返回模板列表')}
            onClick={() => navigate(DOC_TEMPLATE_PATH)}
          />
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="doc-editor-title">
            {data.name}
          </Typography.Title>
          <Tag color={data.type === 'docTemplate' ? 'blue' : 'purple'}>
            {t(`types.${data.type}`, data.type)}
          </Tag>
          <span className="dt-muted">
            {t('editor.updatedAt', '更新于 {{time}}', {
              time: formatMinute(data.updatedAt),
            })}
          </span>
        </Space>
      }
      extra={
        canWrite ? (
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={saving}
            onClick={save}
            disabled={!dirty}
            data-testid="doc-save"
          >
            {t('editor.save', '保存')}
          </Button>
        ) : (
          <Tag>{t('editor.readOnly', '只读')}</Tag>
        )
      }
    >
      <div className="dt-edit-layout">
        <div className="dt-edit-main">
          <TemplateEditor
            initialHtml={initialHtml}
            onChange={setHtml}
            onReady={onReady}
            onUploadImage={uploadImage}
            readOnly={!canWrite}
          />
        </div>
        <aside className="dt-edit-side">
          <Form layout="vertical">
            <Form.Item
              label={t('editor.boundItem', '绑定数据项')}
              extra={t('editor.boundItemHint', '占位符取自该数据项的字段；从其数据列表中的记录打开模板。')}
            >
              <ItemPicker
                value={boundId}
                onChange={(v) => setItemId(typeof v === 'number' ? v : null)}
                disabled={!canWrite}
                placeholder={
                  data.itemId != null && !data.itemName
                    ? t('list.itemHidden', '无权查看的数据项')
                    : t('editor.pickItem', '选择数据项')
                }
                testId="doc-item-picker"
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Form>
          <Typography.Text strong>{t('editor.fields', '插入字段')}</Typography.Text>
          <div className="dt-field-list" data-testid="doc-field-list">
            <Button
              size="small"
              icon={<FieldTimeOutlined />}
              disabled={!canWrite}
              onClick={() => insertRef.current?.(TEMPLATE_TS_KEY, t('editor.recordTime', '记录时间'))}
              data-testid="doc-insert-ts"
            >
              {t('editor.recordTime', '记录时间')}
            </Button>
            {fields.map((f) => (
              <Button
                key={f.key}
                size="small"
                autoInsertSpace={false}
                disabled={!canWrite}
                onClick={() => insertRef.current?.(f.key, f.name)}
                data-testid={`doc-insert-${f.key}`}
                title={t(`fieldTypes.${FIELD_TYPE_NAMES[f.type]}`, FIELD_TYPE_NAMES[f.type])}
              >
                {f.name}
              </Button>
            ))}
            {boundId == null ? (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={t('editor.noItem', '先绑定一个数据项，再插入它的字段')}
              />
            ) : null}
          </div>
        </aside>
      </div>
    </Card>
  );
}
