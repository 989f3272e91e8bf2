import { InboxOutlined } from '@ant-design/icons';
import type { EnergyDataKind } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Space, Table, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { energyApi, energyKeys, type ImportRejection } from '../api';

/**
 * Records of the page's kind from a CSV or XLSX file (site, period type, period, quantity,
 * remark), all or nothing: a file with a bad line writes nothing, and every bad line is listed
 * with its number and why.
 */
export function ImportModal({
  kind,
  open,
  onClose,
}: {
  kind: EnergyDataKind;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('energy');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<{ message: string; rejected: ImportRejection[] } | null>(null);

  useEffect(() => {
    if (open) setRefused(null);
  }, [open]);

  const upload = async (file: File) => {
    setBusy(true);
    setRefused(null);
    try {
      const envelope = await energyApi.importRecords(kind, file);
      message.success(t('import.done', { count: envelope.data.imported }));
      await queryClient.invalidateQueries({ queryKey: energyKeys.all });
      onClose();
    } catch (error) {
      const data = (error as { data?: { rejected?: ImportRejection[] } }).data;
      setRefused({
        message: error instanceof Error ? error.message : String(error),
        rejected: Array.isArray(data?.rejected) ? data.rejected : [],
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} title={t('import.title')} footer={null} onCancel={onClose} width={640}>
      <p className="energy-muted">{t('import.hint')}</p>
      <Space wrap className="energy-template">
        {(['csv', 'xlsx'] as const).map((format) => (
          <Button
            key={format}
            size="small"
            onClick={() => void energyApi.template(kind, format).catch(() => {})}
          >
            {t('import.template', { format: format.toUpperCase() })}
          </Button>
        ))}
      </Space>
      <Upload.Dragger
        accept=".csv,.xlsx"
        multiple={false}
        showUploadList={false}
        disabled={busy}
        beforeUpload={(file) => {
          void upload(file);
          return false;
        }}
        data-testid="energy-import-file"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{busy ? t('import.reading') : t('import.drop')}</p>
      </Upload.Dragger>
      {refused ? (
        <>
          <Alert type="error" showIcon className="energy-alert energy-import-alert" title={refused.message} />
          {refused.rejected.length ? (
            <Table<ImportRejection>
              rowKey={(r) => `${r.row}-${r.field}`}
              size="small"
              pagination={refused.rejected.length > 10 ? { pageSize: 10 } : false}
              dataSource={refused.rejected}
              columns={[
                { title: t('import.line'), dataIndex: 'row', width: 70 },
                { title: t('import.reason'), dataIndex: 'message' },
              ]}
              data-testid="energy-import-rejected"
            />
          ) : null}
        </>
      ) : null}
    </Modal>
  );
}
