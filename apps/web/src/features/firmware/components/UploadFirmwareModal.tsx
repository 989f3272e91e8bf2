import { InboxOutlined } from '@ant-design/icons';
import { FIRMWARE_VERSION_PATTERN } from '@platform/domain';
import { Alert, Form, Input, Modal, Progress, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/http/client';
import { type FirmwareVersion, firmwareApi } from '../api';

const MODEL_PATTERN = /^[\x21-\x7e](?:[\x20-\x7e]{0,30}[\x21-\x7e])?$/;
const NOTES_MAX = 5000;

interface Values {
  model: string;
  version: string;
  notesZh?: string;
  notesEn?: string;
}

interface Props {
  open: boolean;
  /** the model proposed (the filter's) */
  model?: string;
  onClose: () => void;
  onUploaded: (version: FirmwareVersion) => void;
}

/**
 * Uploading a firmware image with its version, model and notes (zh/en). The server computes
 * the SHA-256; a refusal is shown beside the field it names (the version taken, an image that
 * is not firmware, too large).
 */
export function UploadFirmwareModal({ open, model, onClose, onUploaded }: Props) {
  const { t } = useTranslation('firmware');
  const [form] = Form.useForm<Values>();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const reset = () => {
    form.resetFields();
    setFile(null);
    setFileError(null);
    setPercent(null);
    setFailure(null);
  };

  const submit = async () => {
    // the form shows what it refuses beside each field; nothing is sent
    const values = await form.validateFields().catch(() => null);
    if (!file) setFileError(t('admin.fileRequired'));
    if (!values) return;
    if (!file) {
      setFileError(t('admin.fileRequired'));
      return;
    }
    setFailure(null);
    setPercent(0);
    try {
      const answer = await firmwareApi.upload(
        file,
        {
          model: values.model.trim(),
          version: values.version.trim(),
          notesZh: values.notesZh ?? '',
          notesEn: values.notesEn ?? '',
        },
        setPercent,
      );
      reset();
      onUploaded(answer.data);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setPercent(null);
      const field = (error.data as { field?: string } | null)?.field;
      if (field === 'file') setFileError(error.message);
      else if (field === 'model' || field === 'version' || field === 'notesZh' || field === 'notesEn')
        form.setFields([{ name: field, errors: [error.message] }]);
      else if (error.code === 40900) form.setFields([{ name: 'version', errors: [error.message] }]);
      else setFailure(error.message);
    }
  };

  return (
    <Modal
      open={open}
      title={t('admin.uploadTitle')}
      okText={t('admin.upload')}
      onOk={() => void submit()}
      confirmLoading={percent != null}
      onCancel={() => {
        reset();
        onClose();
      }}
      destroyOnHidden
    >
      <div data-testid="fw-upload-modal">
        <Typography.Paragraph type="secondary">{t('admin.uploadHint')}</Typography.Paragraph>
        <Form<Values> form={form} layout="vertical" initialValues={{ model: model ?? '' }} requiredMark>
          <Form.Item
            name="model"
            label={t('fields.model')}
            rules={[
              { required: true, whitespace: true, message: t('admin.modelRequired') },
              { pattern: MODEL_PATTERN, message: t('admin.modelInvalid') },
            ]}
          >
            <Input placeholder="SDG-200" maxLength={32} data-testid="fw-upload-model" />
          </Form.Item>
          <Form.Item
            name="version"
            label={t('fields.version')}
            rules={[
              { required: true, whitespace: true, message: t('admin.versionRequired') },
              { pattern: FIRMWARE_VERSION_PATTERN, message: t('admin.versionInvalid') },
            ]}
          >
            <Input placeholder="1.3.0" maxLength={32} data-testid="fw-upload-version" />
          </Form.Item>
          <Form.Item
            label={t('fields.file')}
            required
            validateStatus={fileError ? 'error' : undefined}
            help={fileError ?? undefined}
          >
            <Upload.Dragger
              multiple={false}
              maxCount={1}
              beforeUpload={(picked) => {
                setFile(picked);
                setFileError(null);
                return false;
              }}
              onRemove={() => setFile(null)}
              fileList={
                file ? [{ uid: 'firmware', name: `${file.name} (${file.size} B)`, status: 'done' }] : []
              }
              data-testid="fw-upload-file"
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">{t('admin.chooseFile')}</p>
            </Upload.Dragger>
          </Form.Item>
          <Form.Item
            name="notesZh"
            label={t('fields.notesZh')}
            rules={[{ max: NOTES_MAX, message: t('admin.notesTooLong') }]}
          >
            <Input.TextArea rows={3} showCount maxLength={NOTES_MAX} data-testid="fw-upload-notes-zh" />
          </Form.Item>
          <Form.Item
            name="notesEn"
            label={t('fields.notesEn')}
            rules={[{ max: NOTES_MAX, message: t('admin.notesTooLong') }]}
          >
            <Input.TextArea rows={3} showCount maxLength={NOTES_MAX} data-testid="fw-upload-notes-en" />
          </Form.Item>
        </Form>
        {percent != null ? (
          <Progress percent={percent} size="small" format={(p) => t('admin.uploading', { percent: p })} />
        ) : null}
        {failure ? <Alert type="error" showIcon title={failure} /> : null}
      </div>
    </Modal>
  );
}
