/**
 * Every device-family template: its name in the page's language, code, roles, how many devices
 * use it, built in or not, last change; edit, copy (a new template from it) and delete (refused
 * by the server while devices use it; the PV inverter's is never deleted: the inverter dashboard
 * reads it).
 */
import { CopyOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { type FamilyLang, INVERTER_FAMILY } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Grid,
  Input,
  Popconfirm,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { formatMinute } from '../../../shared/time';
import { type TemplateSummary, templateKeys, templatesApi, useTemplateList } from '../templatesApi';

export function TemplateList({
  onEdit,
  onCopy,
  onNew,
}: {
  onEdit: (id: number) => void;
  onCopy: (id: number) => void;
  onNew: () => void;
}) {
  const { t, i18n } = useTranslation('flowcharts');
  const lang: FamilyLang = i18n.language.startsWith('en') ? 'en' : 'zh';
  const other: FamilyLang = lang === 'en' ? 'zh' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useTemplateList();
  // on a phone the actions are icons, so the table shows more than names and buttons
  const compact = Grid.useBreakpoint().md === false;
  const label = (text: string) => (compact ? { 'aria-label': text, title: text } : { children: text });
  const [keyword, setKeyword] = useState('');
  const [deleting, setDeleting] = useState<number | null>(null);
  const k = keyword.trim().toLowerCase();
  const rows = (list.data ?? []).filter(
    (x) => k === '' || [x.code, x.name.zh, x.name.en].some((s) => s.toLowerCase().includes(k)),
  );

  const remove = async (row: TemplateSummary) => {
    setDeleting(row.id);
    try {
      const envelope = await templatesApi.remove(row.id);
      message.success(envelope.message || t('templates.deleted', '已删除'));
      await queryClient.invalidateQueries({ queryKey: templateKeys.list() });
      queryClient.removeQueries({ queryKey: templateKeys.one(row.id) });
    } catch (error) {
      message.error((error as Error).message);
    } finally {
      setDeleting(null);
    }
  };

  return (
    <Card variant="borderless" data-testid="template-list">
      <PageHeader
        title={t('templates.title', '设备族流程图模板')}
        hint={t(
          'templates.hint',
          '每个模板是按角色绘制的组态画面；设备选用模板后，各角色对应到设备的数据点，即得到设备的流程图。',
        )}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={onNew} data-testid="template-new">
            {t('templates.new', '新建模板')}
          </Button>
        }
      />
      <Space wrap className="fc-toolbar">
        <Input.Search
          allowClear
          placeholder={t('templates.search', '按名称或编码搜索')}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          className="fc-search"
          data-testid="template-search"
        />
      </Space>
      {list.isError ? <LoadFailed onRetry={() => list.refetch()} /> : null}
      <Table<TemplateSummary>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        locale={{
          emptyText: k ? t('templates.noMatch', '没有匹配的模板') : t('templates.empty', '还没有模板'),
        }}
        onRow={(r) => ({ 'data-testid': `template-row-${r.code}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('templates.name', '名称'),
            key: 'name',
            render: (_, r) => (
              <div className="fc-names">
                <Typography.Link onClick={() => onEdit(r.id)} data-testid={`template-open-${r.code}`}>
                  {r.name[lang]}
                </Typography.Link>
                <Typography.Text type="secondary" className="fc-other-name">
                  {r.name[other]}
                </Typography.Text>
              </div>
            ),
          },
          {
            title: t('templates.code', '编码'),
            dataIndex: 'code',
            render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
          },
          {
            title: t('templates.roleCount', '角色数'),
            key: 'roles',
            align: 'right',
            render: (_, r) => (
              <Tooltip title={r.roles.map((x) => x.name[lang]).join('、')}>
                <span>{r.roles.length}</span>
              </Tooltip>
            ),
          },
          {
            title: t('templates.devices', '使用设备'),
            dataIndex: 'devices',
            align: 'right',
            render: (v: number) => (v > 0 ? v : <Typography.Text type="secondary">0</Typography.Text>),
          },
          {
            title: t('templates.kind', '来源'),
            dataIndex: 'builtin',
            render: (v: boolean) =>
              v ? (
                <Tag color="gold">{t('templates.builtin', '内置')}</Tag>
              ) : (
                <Tag>{t('templates.custom', '自定义')}</Tag>
              ),
          },
          {
            title: t('templates.updatedAt', '最后修改'),
            dataIndex: 'updatedAt',
            render: (v: string) => formatMinute(v),
          },
          {
            title: t('templates.actions', '操作'),
            key: 'actions',
            fixed: 'right',
            render: (_, r) => (
              <Space size={0} wrap={false}>
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => onEdit(r.id)}
                  data-testid={`template-edit-${r.code}`}
                  {...label(t('templates.edit', '编辑'))}
                />
                <Button
                  type="link"
                  size="small"
                  icon={<CopyOutlined />}
                  onClick={() => onCopy(r.id)}
                  data-testid={`template-copy-${r.code}`}
                  {...label(t('templates.copy', '复制'))}
                />
                {r.code === INVERTER_FAMILY ? (
                  <Tooltip title={t('templates.inverterKept', '逆变器看板依据此模板，只能编辑，不能删除')}>
                    <Button
                      type="link"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      disabled
                      {...label(t('templates.delete', '删除'))}
                    />
                  </Tooltip>
                ) : (
                  <Popconfirm
                    title={t('templates.deleteConfirm', '删除模板“{{name}}”？', { name: r.name[lang] })}
                    description={
                      r.devices > 0
                        ? t('templates.deleteInUse', '有 {{n}} 台设备正用它作流程图。', { n: r.devices })
                        : t('templates.deleteHint', '删除后不可恢复。')
                    }
                    okText={t('templates.delete', '删除')}
                    cancelText={t('templates.cancel', '取消')}
                    okButtonProps={{ danger: true, 'data-testid': 'template-delete-ok' } as ButtonProps}
                    onConfirm={() => remove(r)}
                  >
                    <Button
                      type="link"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      loading={deleting === r.id}
                      data-testid={`template-delete-${r.code}`}
                      {...label(t('templates.delete', '删除'))}
                    />
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
