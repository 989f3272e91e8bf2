import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { ENERGY_SITE_TYPES, type EnergySiteType } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Form, Input, Modal, Popconfirm, Select, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../shared/LoadFailed';
import { validated } from '../../../shared/validated';
import { type EnergySite, energyApi, energyKeys, useSites } from '../api';
import { placeFieldError } from '../model';

interface Values {
  name?: string;
  type: EnergySiteType;
  remark?: string;
}

/** The company's sites, shared by the four pages: added, renamed, deleted while they hold no records. */
export function SitesModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('energy');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const sites = useSites();
  const [form] = Form.useForm<Values>();
  const [editing, setEditing] = useState<EnergySite | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setEditing(null);
    form.resetFields();
    form.setFieldsValue({ type: 'plant' });
  }, [open, form]);

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await energyApi.saveSite({
        ...(editing ? { id: editing.id } : {}),
        name: values.name!.trim(),
        type: values.type,
        remark: values.remark?.trim() ?? '',
      });
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: energyKeys.all });
      setEditing(null);
      form.resetFields();
      form.setFieldsValue({ type: values.type });
    } catch (error) {
      placeFieldError(form, error, ['name', 'type', 'remark']);
    } finally {
      setSaving(false);
    }
  };

  const remove = async (site: EnergySite) => {
    try {
      const envelope = await energyApi.removeSite(site.id);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: energyKeys.all });
    } catch {
      // the http client showed why (a site with records stays)
    }
  };

  const columns: ColumnsType<EnergySite> = [
    {
      title: t('sites.name'),
      dataIndex: 'name',
      ellipsis: true,
      render: (name: string, s) => (
        <span>
          {name}
          <span className="energy-muted"> · {t(`siteType.${s.type}`)}</span>
        </span>
      ),
    },
    { title: t('sites.records'), dataIndex: 'records', width: 80, align: 'right' },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 96,
      render: (_, s) => (
        <span className="energy-nowrap">
          <Button
            type="text"
            size="small"
            icon={<EditOutlined />}
            aria-label={t('common.edit')}
            onClick={() => {
              setEditing(s);
              form.setFieldsValue({ name: s.name, type: s.type, remark: s.remark });
            }}
          />
          <Popconfirm
            title={t('sites.deleteConfirm', { name: s.name })}
            okText={t('common.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel')}
            onConfirm={() => remove(s)}
          >
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('common.delete')}
            />
          </Popconfirm>
        </span>
      ),
    },
  ];

  return (
    <Modal open={open} title={t('sites.title')} footer={null} onCancel={onClose} width={600} forceRender>
      <Form form={form} layout="vertical" data-testid="energy-site-form" onFinish={save}>
        <div className="energy-form-grid">
          <Form.Item
            name="name"
            label={editing ? t('sites.rename', { name: editing.name }) : t('sites.name')}
            rules={[{ required: true, whitespace: true, message: t('rules.siteName') }, { max: 50 }]}
          >
            <Input maxLength={50} placeholder={t('sites.namePlaceholder')} data-testid="energy-site-name" />
          </Form.Item>
          <Form.Item name="type" label={t('sites.type')}>
            <Select
              options={ENERGY_SITE_TYPES.map((type) => ({ value: type, label: t(`siteType.${type}`) }))}
              data-testid="energy-site-type"
            />
          </Form.Item>
        </div>
        <Form.Item name="remark" label={t('fields.remark')} rules={[{ max: 200 }]}>
          <Input maxLength={200} />
        </Form.Item>
        <div className="energy-form-actions">
          {editing ? (
            <Button
              onClick={() => {
                setEditing(null);
                form.resetFields();
                form.setFieldsValue({ type: 'plant' });
              }}
            >
              {t('common.cancel')}
            </Button>
          ) : null}
          <Button type="primary" htmlType="submit" loading={saving} data-testid="energy-site-save">
            {editing ? t('common.save') : t('sites.add')}
          </Button>
        </div>
      </Form>
      {sites.isError ? <LoadFailed onRetry={() => void sites.refetch()} /> : null}
      <Table<EnergySite>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={sites.data ?? []}
        loading={sites.isFetching}
        pagination={false}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sites.empty')} /> }}
        data-testid="energy-site-table"
      />
    </Modal>
  );
}
