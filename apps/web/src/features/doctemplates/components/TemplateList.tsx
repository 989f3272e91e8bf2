import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { DocTemplateRow, DocTemplateType } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Empty,
  Form,
  Input,
  Modal,
  Radio,
  Space,
  Table,
  Tag,
  TreeSelect,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { NAME_COUNT } from '../../../shared/rules';
import { formatMinute } from '../../../shared/time';
import { validated } from '../../../shared/validated';
import { cabinApi, cabinKeys, useCabinTree } from '../../datacabin/api';
import { buildTree, cabinNameRule, type TreeNode } from '../../datacabin/cabin';
import { docKeys, useDocTemplates } from '../api';
import { docTemplateEditPath } from '../paths';

interface CreateForm {
  name: string;
  type: DocTemplateType;
  parentId?: number;
}

/** The template list: name, kind, bound item, last change; create, edit, delete. */
export function TemplateList() {
  const { t } = useTranslation('doctemplates');
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useDocTemplates();
  const [creating, setCreating] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<CreateForm>();
  const tree = useCabinTree();

  const directories = useMemo(() => {
    type Option = { value: number; title: string; disabled?: boolean; children: Option[] };
    const convert = (nodes: TreeNode[]): Option[] =>
      nodes
        .filter((n) => n.type === 'directory')
        .map((n) => ({ value: n.id, title: n.name, disabled: n.level < 2, children: convert(n.children) }));
    return convert(buildTree(tree.data ?? []));
  }, [tree.data]);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: docKeys.all }),
      queryClient.invalidateQueries({ queryKey: cabinKeys.all }),
    ]);

  const create = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await cabinApi.create({
        parentId: values.parentId ?? null,
        type: values.type,
        name: values.name.trim(),
      });
      message.success(envelope.message);
      setCreating(false);
      form.resetFields();
      await refresh();
      navigate(docTemplateEditPath(envelope.data.id));
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  const remove = (row: DocTemplateRow) => {
    modal.confirm({
      title: t('list.deleteConfirm', '删除模板“{{name}}”？', { name: row.name }),
      content: t('list.deleteHint', '模板将从数据舱中删除，无法恢复。'),
      okText: t('common.delete', '删除'),
      okButtonProps: { danger: true, 'data-testid': 'doc-delete-ok' } as never,
      cancelText: t('common.cancel', '取消'),
      onOk: async () => {
        try {
          const envelope = await cabinApi.remove([row.id]);
          message.success(envelope.message);
          await refresh();
        } catch {
          // shown by the http client
        }
      },
    });
  };

  const itemText = (row: DocTemplateRow) =>
    row.itemId == null
      ? t('list.unbound', '未绑定')
      : (row.itemName ?? t('list.itemHidden', '无权查看的数据项'));

  const columns: ColumnsType<DocTemplateRow> = [
    {
      title: t('list.name', '模板名称'),
      dataIndex: 'name',
      render: (name: string, row) => (
        <>
          <Typography.Link
            onClick={() => navigate(docTemplateEditPath(row.id))}
            data-testid={`doc-open-${row.id}`}
          >
            {name}
          </Typography.Link>
          {/* on a phone the type and item columns are hidden: they show under the name */}
          <div className="dt-xs-only dt-muted">
            {t(`types.${row.type}`, row.type)} · {itemText(row)}
          </div>
        </>
      ),
    },
    {
      title: t('list.type', '类型'),
      dataIndex: 'type',
      width: 130,
      responsive: ['sm'],
      render: (type: DocTemplateType) => (
        <Tag color={type === 'docTemplate' ? 'blue' : 'purple'}>{t(`types.${type}`, type)}</Tag>
      ),
    },
    {
      title: t('list.item', '绑定数据项'),
      key: 'item',
      responsive: ['sm'],
      render: (_, row) =>
        row.itemName != null ? row.itemName : <span className="dt-muted">{itemText(row)}</span>,
    },
    {
      title: t('list.updatedAt', '更新时间'),
      dataIndex: 'updatedAt',
      width: 170,
      responsive: ['md'],
      render: (v: string) => formatMinute(v),
    },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: 170,
      render: (_, row) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            onClick={() => navigate(docTemplateEditPath(row.id))}
            data-testid={`doc-edit-${row.id}`}
          >
            {row.level >= 2 ? t('common.edit', '编辑') : t('common.view', '查看')}
          </Button>
          {row.level >= 3 ? (
            <Button
              type="link"
              size="small"
              danger
              icon={<DeleteOutlined />}
              onClick={() => remove(row)}
              data-testid={`doc-delete-${row.id}`}
            >
              {t('common.delete', '删除')}
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <Card variant="borderless" title={t('list.title', '文档模板')} data-testid="doctemplate-page">
      <div className="dt-list-actions">
        <span className="dt-muted">
          {t('list.hint', '模板正文中的字段占位符在打开某条数据时替换为该数据的值。')}
        </span>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setCreating(true)}
          data-testid="doc-add"
        >
          {t('list.add', '新建模板')}
        </Button>
      </div>
      <Table<DocTemplateRow>
        rowKey="id"
        columns={columns}
        dataSource={list.data ?? []}
        loading={list.isFetching}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t('list.empty', '还没有模板。新建一个模板，绑定数据项并插入字段。')}
            />
          ),
        }}
      />
      <Modal
        open={creating}
        title={t('list.add', '新建模板')}
        okText={t('common.ok', '确定')}
        cancelText={t('common.cancel', '取消')}
        confirmLoading={saving}
        onOk={create}
        onCancel={() => setCreating(false)}
        okButtonProps={{ 'data-testid': 'doc-create-ok' } as never}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" initialValues={{ type: 'docTemplate' }} preserve={false}>
          <Form.Item name="name" label={t('list.name', '模板名称')} rules={[cabinNameRule('docTemplate')]}>
            <Input count={NAME_COUNT} data-testid="doc-create-name" />
          </Form.Item>
          <Form.Item name="type" label={t('list.type', '类型')}>
            <Radio.Group
              options={[
                { value: 'docTemplate', label: t('types.docTemplate', '文档模板') },
                { value: 'richTemplate', label: t('types.richTemplate', '富文本模板') },
              ]}
            />
          </Form.Item>
          <Form.Item
            name="parentId"
            label={t('list.directory', '所在目录')}
            extra={t('list.directoryHint', '不选则放在数据舱顶层')}
          >
            <TreeSelect
              allowClear
              treeData={directories}
              treeDefaultExpandAll
              placeholder={t('list.top', '数据舱顶层')}
              data-testid="doc-create-dir"
            />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
