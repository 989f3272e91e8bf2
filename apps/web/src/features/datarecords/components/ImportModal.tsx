import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import type { FieldDef } from '@platform/domain';
import { App, Button, Modal, Progress, Result, Space, Table, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { drApi, type ImportResult } from '../api';
import { downloadImportTemplate } from '../download';

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Import a CSV or XLSX file: upload progress, then the inserted count and every rejected row. */
export function ImportModal({
  itemId,
  itemName,
  fields,
  open,
  onClose,
  onDone,
}: {
  itemId: number;
  /** names the downloaded template */
  itemName: string;
  /** the item's fields: a rejected row names its field by name, not by key */
  fields: FieldDef[];
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('datarecords');
  const { message } = App.useApp();
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);

  const fieldName = (key: string) =>
    key === 'ts' ? t('records.time', '时间') : (fields.find((f) => f.key === key)?.name ?? key);

  const [fetching, setFetching] = useState<'xlsx' | 'csv' | null>(null);
  const template = async (format: 'xlsx' | 'csv') => {
    setFetching(format);
    try {
      await downloadImportTemplate({ itemId, itemName, format });
    } catch {
      // the download helper showed the error
    } finally {
      setFetching(null);
    }
  };

  const close = () => {
    setProgress(null);
    setResult(null);
    onClose();
  };

  const send = async (file: File) => {
    setResult(null);
    setProgress(0);
    try {
      const envelope = await drApi.import(itemId, file, setProgress);
      setResult(envelope.data);
      if (envelope.data.inserted > 0) onDone();
      if (!envelope.data.rejected.length) message.success(envelope.message);
    } catch {
      // the http client showed the error
    } finally {
      setProgress(null);
    }
  };

  return (
    <Modal
      open={open}
      title={t('import.title', '导入数据')}
      footer={null}
      onCancel={close}
      destroyOnHidden
      width={640}
    >
      <div data-testid="import-modal">
        <div className="dr-import-template" data-testid="import-template">
          <span>{t('import.template', '下载导入模板（表头及各列说明）：')}</span>
          <Space size={4} wrap>
            {(['xlsx', 'csv'] as const).map((format) => (
              <Button
                key={format}
                type="link"
                size="small"
                icon={<DownloadOutlined />}
                loading={fetching === format}
                onClick={() => template(format)}
                data-testid={`import-template-${format}`}
              >
                {format === 'xlsx' ? 'Excel (XLSX)' : 'CSV'}
              </Button>
            ))}
          </Space>
        </div>
        <Upload.Dragger
          accept={ACCEPT}
          showUploadList={false}
          disabled={progress !== null}
          beforeUpload={(file) => {
            void send(file);
            return Upload.LIST_IGNORE;
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p>{t('import.drop', '点击或拖入 CSV / XLSX 文件')}</p>
          <p className="dr-muted">
            {t('import.hint', '第一行为表头：时间，然后是字段名（可带单位）；模板的说明行导入时自动跳过')}
          </p>
        </Upload.Dragger>
        {progress !== null ? (
          <Progress
            percent={progress}
            status="active"
            data-testid="import-progress"
            style={{ marginTop: 12 }}
          />
        ) : null}
        {result ? (
          <div data-testid="import-result">
            <Result
              status={result.rejected.length ? 'warning' : 'success'}
              title={t('import.summary', '共 {{total}} 行，成功导入 {{inserted}} 行', {
                total: result.total,
                inserted: result.inserted,
              })}
              subTitle={
                result.rejected.length
                  ? t('import.rejectedCount', '{{count}} 行未导入：', { count: result.rejected.length })
                  : undefined
              }
              style={{ padding: '16px 0' }}
            />
            {result.rejected.length ? (
              <Table
                size="small"
                rowKey={(r) => `${r.row}-${r.field}`}
                dataSource={result.rejected}
                pagination={result.rejected.length > 10 ? { pageSize: 10 } : false}
                columns={[
                  { title: t('import.row', '行'), dataIndex: 'row', width: 70 },
                  {
                    title: t('import.field', '字段'),
                    dataIndex: 'field',
                    width: 140,
                    render: (key: string) => fieldName(key),
                  },
                  { title: t('import.message', '原因'), dataIndex: 'message' },
                ]}
                data-testid="import-rejected"
              />
            ) : null}
          </div>
        ) : null}
      </div>
    </Modal>
  );
}
