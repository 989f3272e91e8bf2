/** The list of boards (dashboard3): create from a template, design, display, delete. */
import { DeleteOutlined, EditOutlined, FundViewOutlined, PlusOutlined } from '@ant-design/icons';
import { DATA_PERMISSION } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Empty,
  Form,
  Input,
  Modal,
  Select,
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
import { formatMinute } from '../../../shared/time';
import { validated } from '../../../shared/validated';
import { cabinApi, cabinKeys, useCabinTree } from '../../datacabin/api';
import { buildTree, cabinNameRule, type TreeNode } from '../../datacabin/cabin';
import { type BoardRow, boardApi, boardKeys, useBoards, useTemplates } from '../api';
import { editBoardPath, showBoardPath } from '../paths';
import '../boards.css';

interface CreateForm {
  name: string;
  template: string;
  parentId?: number;
}

export default function BoardListPage() {
  const { t, i18n } = useTranslation('boards');
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const boards = useBoards();
  const templates = useTemplates();
  const tree = useCabinTree();
  const [creating, setCreating] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<CreateForm>();
  const en = i18n.language.startsWith('en');

  const directories = useMemo(() => {
    type Option = { value: number; title: string; disabled?: boolean; children: Option[] };
    const convert = (nodes: TreeNode[]): Option[] =>
      nodes
        .filter((n) => n.type === 'directory')
        .map((n) => ({ value: n.id, title: n.name, disabled: n.level < 2, children: convert(n.children) }));
    return convert(buildTree(tree.data ?? []));
  }, [tree.data]);

  const create = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await boardApi.create({
        name: values.name.trim(),
        template: values.template,
        parentId: values.parentId ?? null,
      });
      message.success(envelope.message);
      setCreating(false);
      form.resetFields();
      await queryClient.invalidateQueries({ queryKey: boardKeys.all });
      void queryClient.invalidateQueries({ queryKey: cabinKeys.all });
      navigate(editBoardPath(envelope.data.id, envelope.data.name));
    } catch {
      // shown by the http client
    } finally {
      setSaving(false);
    }
  };

  const remove = (row: BoardRow) =>
    modal.confirm({
      title: t('list.deleteConfirm', '删除看板“{{name}}”？', { name: row.name }),
      content: t('list.deleteHint', '看板将从数据舱中删除，无法恢复；轮播中的该看板会被跳过。'),
      okText: t('common.delete', '删除'),
      okButtonProps: { danger: true, 'data-testid': 'board-delete-ok' } as never,
      cancelText: t('common.cancel', '取消'),
      onOk: async () => {
        try {
          await cabinApi.remove([row.id]);
          message.success(t('common.deleted', '删除成功'));
          await queryClient.invalidateQueries({ queryKey: boardKeys.all });
        } catch {
          // shown by the http client
        }
      },
    });

  const columns: ColumnsType<BoardRow> = [
    {
      title: t('list.name', '看板名称'),
      dataIndex: 'name',
      render: (name: string, row) => (
        <Typography.Link onClick={() => navigate(showBoardPath(row.id))} data-testid={`board-open-${row.id}`}>
          {name}
        </Typography.Link>
      ),
    },
    {
      title: t('list.mode', '类型'),
      dataIndex: 'mode',
      width: 120,
      render: (mode: string, row) => (
        <Space size={4}>
          <Tag color={mode === 'canvas' ? 'geekblue' : 'green'}>{t(`mode.${mode}`, mode)}</Tag>
          {row.type === 'dashboardTemplate' ? <Tag>{t('list.template', '模板')}</Tag> : null}
        </Space>
      ),
    },
    { title: t('list.widgets', '组件数'), dataIndex: 'widgetCount', width: 90, responsive: ['md'] },
    {
      title: t('list.updatedAt', '更新时间'),
      dataIndex: 'updatedAt',
      width: 170,
      responsive: ['md'],
      render: (v: string) => formatMinute(v),
    },
    {
      title: t('list.actions', '操作'),
      key: 'actions',
      width: 220,
      render: (_, row) => (
        <Space size={0} wrap>
          <Button type="link" icon={<FundViewOutlined />} onClick={() => navigate(showBoardPath(row.id))}>
            {t('list.display', '显示')}
          </Button>
          <Button
            type="link"
            icon={<EditOutlined />}
            onClick={() => navigate(editBoardPath(row.id, row.name))}
            data-testid={`board-edit-${row.id}`}
          >
            {row.level >= DATA_PERMISSION.write ? t('list.design', '设计') : t('list.view', '查看')}
          </Button>
          {row.level >= DATA_PERMISSION.admin ? (
            <Button
              type="link"
              danger
              icon={<DeleteOutlined />}
              onClick={() => remove(row)}
              aria-label={t('common.delete', '删除')}
            />
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('list.title', '看板')}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setCreating(true)}
          data-testid="board-new"
        >
          {t('list.new', '新建看板')}
        </Button>
      }
      variant="borderless"
    >
      <Table
        rowKey="id"
        size="middle"
        loading={boards.isLoading}
        dataSource={boards.data ?? []}
        columns={columns}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{
          emptyText: <Empty description={t('list.empty', '还没有看板，点击“新建看板”从模板开始')} />,
        }}
        scroll={{ x: 'max-content' }}
      />
      <Modal
        open={creating}
        title={t('list.new', '新建看板')}
        onOk={create}
        confirmLoading={saving}
        onCancel={() => setCreating(false)}
        okButtonProps={{ 'data-testid': 'board-create-ok' } as never}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" initialValues={{ template: 'blank-grid' }} preserve={false}>
          <Form.Item name="name" label={t('list.name', '看板名称')} rules={[cabinNameRule('dashboard')]}>
            <Input maxLength={25} showCount data-testid="board-name" />
          </Form.Item>
          <Form.Item name="template" label={t('list.startFrom', '从模板开始')}>
            <Select
              data-testid="board-template"
              options={(templates.data ?? []).map((tpl) => ({
                value: tpl.code,
                label: en ? tpl.name.en : tpl.name.zh,
              }))}
            />
          </Form.Item>
          <Form.Item name="parentId" label={t('list.parent', '所在目录（可选）')}>
            <TreeSelect allowClear treeData={directories} treeDefaultExpandAll />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
