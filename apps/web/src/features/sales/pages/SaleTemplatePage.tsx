import { ArrowLeftOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Form, Input, Popconfirm, Skeleton, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '../../../app/http/client';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { formatMinute } from '../../../shared/time';
import { validated } from '../../../shared/validated';
import { relabel } from '../../doctemplates/components/fieldChip';
import { TemplateEditor } from '../../doctemplates/components/TemplateEditor';
import {
  type ContractTemplateRow,
  contractApi,
  contractKeys,
  useContractStarter,
  useContractTemplate,
  useContractTemplates,
} from '../contracts-api';
import '../../doctemplates/doctemplates.css';
import '../sales.css';

type Insert = (field: string, label: string) => void;

/**
 * /smartSale/saletemplate (ss_sale_contract): the company's contract templates. A new one starts
 * from a plain sales contract; the editor is the document templates' (headings, tables, lists),
 * and the order's fields (number, buyer, lines, amount in capitals…) are inserted as
 * placeholders. `?edit=ID` or `?edit=new` opens the editor.
 */
export default function SaleTemplatePage() {
  const [params, setParams] = useSearchParams();
  const edit = params.get('edit');
  const close = () => setParams({}, { replace: true });
  if (edit === 'new') return <TemplateEditCard id={null} onClose={close} />;
  if (edit && Number(edit) > 0) return <TemplateEditCard id={Number(edit)} onClose={close} />;
  return <TemplateList onEdit={(id) => setParams({ edit: String(id ?? 'new') })} />;
}

function TemplateList({ onEdit }: { onEdit: (id: number | null) => void }) {
  const { t } = useTranslation('sales');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const templates = useContractTemplates();

  const remove = async (template: ContractTemplateRow) => {
    try {
      message.success((await contractApi.deleteTemplate(template.id)).message);
      await queryClient.invalidateQueries({ queryKey: contractKeys.templates });
    } catch {
      // the http client showed the error
    }
  };

  const columns: ColumnsType<ContractTemplateRow> = [
    {
      title: t('templates.name'),
      dataIndex: 'name',
      render: (name: string, row) => (
        <Button type="link" className="sales-link-cell" onClick={() => onEdit(row.id)}>
          {name}
        </Button>
      ),
    },
    {
      title: t('templates.updatedAt'),
      dataIndex: 'updatedAt',
      width: 170,
      render: (v: string) => formatMinute(v),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 150,
      render: (_, row) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            onClick={() => onEdit(row.id)}
            data-testid={`template-edit-${row.name}`}
          >
            {t('templates.edit')}
          </Button>
          <Popconfirm
            title={t('templates.deleteConfirm', { name: row.name })}
            description={t('templates.deleteKeeps')}
            okText={t('contracts.delete')}
            okButtonProps={{ danger: true, 'data-testid': 'template-delete-ok' }}
            cancelText={t('common.cancel')}
            onConfirm={() => remove(row)}
          >
            <Button type="link" size="small" danger data-testid={`template-delete-${row.name}`}>
              {t('contracts.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card variant="borderless" data-testid="sales-templates" className="sales-card">
      <PageHeader
        title={t('templates.title')}
        hint={t('templates.hint')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => onEdit(null)}
            data-testid="template-new"
          >
            {t('templates.new')}
          </Button>
        }
      />
      {templates.isError ? <LoadFailed onRetry={() => void templates.refetch()} /> : null}
      <Table<ContractTemplateRow>
        rowKey="id"
        columns={columns}
        dataSource={templates.data ?? []}
        loading={templates.isFetching}
        pagination={false}
        scroll={{ x: 520 }}
        data-testid="template-table"
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('templates.empty')} />,
        }}
      />
    </Card>
  );
}

/** One template (null: a new one) in the editor: its name, its body, the fields to insert, save. */
function TemplateEditCard({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation('sales');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [, setParams] = useSearchParams();
  const starter = useContractStarter();
  const template = useContractTemplate(id);
  const [form] = Form.useForm<{ name: string }>();
  const [html, setHtml] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const insertRef = useRef<Insert | null>(null);
  const fields = starter.data?.fields ?? [];

  // the body to start from, once: the stored one with its placeholders labelled in the page's
  // language, or the plain contract for a new template
  const [initialHtml, setInitialHtml] = useState<string | null>(null);
  useEffect(() => {
    if (initialHtml !== null || !starter.data) return;
    if (id == null) {
      setInitialHtml(starter.data.html);
      return;
    }
    if (!template.data) return;
    setInitialHtml(relabel(template.data.html, new Map(starter.data.fields.map((f) => [f.key, f.label]))));
    form.setFieldsValue({ name: template.data.name });
  }, [id, initialHtml, starter.data, template.data, form]);

  const onReady = useCallback((insert: Insert) => {
    insertRef.current = insert;
  }, []);

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    const { name } = values;
    setSaving(true);
    try {
      const envelope = await contractApi.saveTemplate({
        ...(id != null ? { id } : {}),
        name,
        html: html ?? initialHtml ?? '',
      });
      message.success(envelope.message);
      queryClient.setQueryData(contractKeys.template(envelope.data.id), envelope.data);
      await queryClient.invalidateQueries({ queryKey: contractKeys.templates });
      if (id == null) setParams({ edit: String(envelope.data.id) }, { replace: true });
    } catch (error) {
      // the http client showed the error; a taken name is shown beside the name too
      if (error instanceof ApiError && (error.data as { field?: string } | null)?.field === 'name')
        form.setFields([{ name: 'name', errors: [error.message] }]);
    } finally {
      setSaving(false);
    }
  };

  if (template.isError || starter.isError) {
    return (
      <Card variant="borderless" className="sales-card" data-testid="template-editor">
        <LoadFailed
          onRetry={() => {
            void template.refetch();
            void starter.refetch();
          }}
        />
      </Card>
    );
  }

  return (
    <Card variant="borderless" className="sales-card" data-testid="template-editor">
      <PageHeader
        title={
          <span className="sales-title-line">
            <Button
              type="text"
              icon={<ArrowLeftOutlined />}
              aria-label={t('templates.back')}
              onClick={onClose}
            />
            {id == null ? t('templates.new') : (template.data?.name ?? '')}
          </span>
        }
        extra={
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={saving}
            onClick={save}
            data-testid="template-save"
          >
            {t('templates.save')}
          </Button>
        }
      />
      {initialHtml === null ? (
        <Skeleton active />
      ) : (
        <div className="dt-edit-layout">
          <div className="dt-edit-main">
            <Form form={form} layout="vertical">
              <Form.Item
                name="name"
                label={t('templates.name')}
                rules={[
                  { required: true, whitespace: true, message: t('templates.nameRequired') },
                  { max: 100, message: t('templates.nameTooLong') },
                ]}
              >
                <Input maxLength={100} data-testid="template-name" />
              </Form.Item>
            </Form>
            <TemplateEditor initialHtml={initialHtml} onChange={setHtml} onReady={onReady} />
          </div>
          <aside className="dt-edit-side">
            <Typography.Text strong>{t('templates.fields')}</Typography.Text>
            <Typography.Paragraph type="secondary" className="sales-muted">
              {t('templates.fieldsHint')}
            </Typography.Paragraph>
            <div className="dt-field-list" data-testid="template-field-list">
              {fields.map((f) => (
                <Button
                  key={f.key}
                  size="small"
                  autoInsertSpace={false}
                  onClick={() => insertRef.current?.(f.key, f.label)}
                  data-testid={`template-insert-${f.key}`}
                >
                  {f.label}
                </Button>
              ))}
            </div>
          </aside>
        </div>
      )}
    </Card>
  );
}
