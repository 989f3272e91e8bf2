import { DeleteOutlined, EditOutlined, FileTextOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Form, Input, Modal, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError } from '../../../app/http/client';
import { usePaging } from '../../../shared/paging';
import { formatMinute } from '../../../shared/time';
import { type FirmwareVersion, firmwareApi, firmwareKeys, useFirmwareVersions } from '../api';
import { firmwarePaths } from '../paths';
import { formatSize, shortHash } from '../states';
import { UploadFirmwareModal } from './UploadFirmwareModal';
import { notesOf } from './VersionList';
import '../firmware.css';

/**
 * The operator's firmware versions (system maintenance → gateways, system_gateway): upload an
 * image with its version, model and notes; the list with each SHA-256; notes edited; a version
 * deleted after confirmation (refused while a live upgrade uses it).
 */
export function FirmwareVersionsPanel() {
  const { t } = useTranslation('firmware');
  const { modal, message } = App.useApp();
  const client = useQueryClient();
  const { paging, pagination, reset } = usePaging(10);
  const [model, setModel] = useState<string | undefined>();
  const [uploading, setUploading] = useState(false);
  const [editing, setEditing] = useState<FirmwareVersion | null>(null);
  const rows = useFirmwareVersions(model, paging);
  const refresh = () => client.invalidateQueries({ queryKey: firmwareKeys.all });

  const remove = (v: FirmwareVersion) =>
    modal.confirm({
      title: t('admin.deleteTitle'),
      content: t('admin.deleteConfirm', { version: v.version, model: v.model }),
      okText: t('admin.delete'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const answer = await firmwareApi.remove(v.id);
          void message.success(answer.message);
        } catch (error) {
          // the refusal (a live upgrade uses it) was shown by the client's notification
          if (!(error instanceof ApiError)) throw error;
        }
        await refresh();
      },
    });

  return (
    <div data-testid="fw-admin">
      <div className="fw-toolbar">
        <Input.Search
          allowClear
          className="fw-model-filter"
          style={{ maxWidth: 260 }}
          placeholder={t('admin.modelFilter')}
          onSearch={(value) => {
            setModel(value.trim() || undefined);
            reset();
          }}
          data-testid="fw-admin-filter"
        />
        <Button
          type="primary"
          icon={<UploadOutlined />}
          onClick={() => setUploading(true)}
          data-testid="fw-admin-upload"
        >
          {t('admin.upload')}
        </Button>
      </div>
      <Table<FirmwareVersion>
        rowKey="id"
        size="middle"
        loading={rows.isFetching && !rows.data}
        dataSource={rows.data?.list ?? []}
        pagination={pagination(rows.data)}
        scroll={{ x: 980 }}
        onRow={(row) => ({ 'data-testid': `fw-admin-row-${row.model}-${row.version}` }) as never}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('admin.empty')} /> }}
        data-testid="fw-admin-table"
        columns={[
          { title: t('fields.model'), dataIndex: 'model', width: 110, fixed: 'left' },
          {
            title: t('fields.version'),
            dataIndex: 'version',
            width: 110,
            render: (version: string, row) => (
              <Link to={firmwarePaths.releaseNote(version, row.model)}>
                <FileTextOutlined /> {version}
              </Link>
            ),
          },
          {
            title: t('fields.notes'),
            key: 'notes',
            ellipsis: { showTitle: true },
            render: (_, row) => notesOf(row) || '—',
          },
          {
            title: t('fields.size'),
            dataIndex: 'size',
            width: 90,
            render: (size: number) => formatSize(size),
          },
          {
            title: t('fields.sha256'),
            dataIndex: 'sha256',
            width: 180,
            render: (sha: string) => (
              <Typography.Text className="fw-mono fw-small" copyable={{ text: sha }} title={sha}>
                {shortHash(sha)}
              </Typography.Text>
            ),
          },
          {
            title: t('fields.uploadedAt'),
            dataIndex: 'uploadedAt',
            width: 140,
            render: (at: string, row) => (
              <span className="fw-small" title={row.uploadedBy?.name}>
                {formatMinute(at)}
              </span>
            ),
          },
          {
            title: t('fields.actions'),
            key: 'actions',
            width: 220,
            fixed: 'right',
            render: (_, row) => (
              <>
                <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)}>
                  {t('admin.editNotes')}
                </Button>
                <Button
                  type="link"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => remove(row)}
                  data-testid={`fw-admin-delete-${row.version}`}
                >
                  {t('admin.delete')}
                </Button>
              </>
            ),
          },
        ]}
      />
      <UploadFirmwareModal
        open={uploading}
        model={model}
        onClose={() => setUploading(false)}
        onUploaded={(v) => {
          setUploading(false);
          void message.success(t('admin.uploaded', { version: v.version }));
          void refresh();
        }}
      />
      <NotesModal version={editing} onClose={() => setEditing(null)} onSaved={() => void refresh()} />
    </div>
  );
}

function NotesModal(props: { version: FirmwareVersion | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('firmware');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ notesZh: string; notesEn: string }>();
  const [saving, setSaving] = useState(false);
  const v = props.version;
  return (
    <Modal
      open={v != null}
      title={v ? t('admin.editTitle', { version: v.version }) : ''}
      onCancel={props.onClose}
      confirmLoading={saving}
      destroyOnHidden
      onOk={async () => {
        if (!v) return;
        const values = await form.validateFields().catch(() => null);
        if (!values) return;
        setSaving(true);
        try {
          await firmwareApi.update(v.id, values.notesZh ?? '', values.notesEn ?? '');
          void message.success(t('admin.saved'));
          props.onSaved();
          props.onClose();
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
        } finally {
          setSaving(false);
        }
      }}
    >
      {v ? (
        <Form form={form} layout="vertical" initialValues={{ notesZh: v.notesZh, notesEn: v.notesEn }}>
          <Form.Item
            name="notesZh"
            label={t('fields.notesZh')}
            rules={[{ max: 5000, message: t('admin.notesTooLong') }]}
          >
            <Input.TextArea rows={4} showCount maxLength={5000} />
          </Form.Item>
          <Form.Item
            name="notesEn"
            label={t('fields.notesEn')}
            rules={[{ max: 5000, message: t('admin.notesTooLong') }]}
          >
            <Input.TextArea rows={4} showCount maxLength={5000} />
          </Form.Item>
        </Form>
      ) : null}
    </Modal>
  );
}
