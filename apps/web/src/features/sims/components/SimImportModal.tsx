import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { App, Button, Modal, Progress, Result, Space, Table, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadSimTemplate, type ImportResult, type Side, simApi } from '../api';
import { useColumnLabel } from './labels';

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Import cards from CSV or XLSX: the template to fill, upload progress, then what was added
 * and updated and every rejected row with its row number, column and reason.
 */
export function SimImportModal({
  side,
  open,
  onClose,
  onDone,
}: {
  side: Side;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('sims');
  const { message } = App.useApp();
  const columnLabel = useColumnLabel();
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [fetching, setFetching] = useState<'xlsx' | 'csv' | null>(null);

  const template = async (format: 'xlsx' | 'csv') => {
    setFetching(format);
    try {
      await downloadSimTemplate(side, format);
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
      const envelope = await simApi.import(side, file, setProgress);
      setResult(envelope.data);
      if (envelope.data.inserted + envelope.data.updated > 0) onDone();
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
      title={
        side === 'system'
          ? t('import.titleSystem', '导入 SIM 卡到平台库存')
          : t('import.title', '导入 SIM 卡')
      }
      footer={null}
      onCancel={close}
      destroyOnHidden
      width={680}
    >
      <div data-testid="sim-import-modal">
        <div className="sim-import-template">
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
                data-testid={`sim-template-${format}`}
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
          data-testid="sim-import-drop"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p>{t('import.drop', '点击或拖入 CSV / XLSX 文件')}</p>
          <p className="sim-muted">
            {side === 'system'
              ? t(
                  'import.hintSystem',
                  '新卡进入平台库存，已有的卡按填写的列更新；ICCID 列必填，留空的单元格不修改',
                )
              : t(
                  'import.hint',
                  '新卡加入本公司，本公司已有的卡按填写的列更新；ICCID 列必填，留空的单元格不修改',
                )}
          </p>
        </Upload.Dragger>
        {progress !== null ? (
          <Progress
            percent={progress}
            status="active"
            data-testid="sim-import-progress"
            style={{ marginTop: 12 }}
          />
        ) : null}
        {result ? (
          <div data-testid="sim-import-result">
            <Result
              status={result.rejected.length ? 'warning' : 'success'}
              title={t('import.summary', '共 {{total}} 行：新增 {{inserted}} 张，更新 {{updated}} 张', {
                total: result.total,
                inserted: result.inserted,
                updated: result.updated,
              })}
              subTitle={
                result.rejected.length
                  ? t('import.rejectedCount', '{{count}} 行未导入（整行未写入）：', {
                      count: result.rejected.length,
                    })
                  : undefined
              }
              style={{ padding: '16px 0' }}
            />
            {result.rejected.length ? (
              <Table
                size="small"
                rowKey={(r) => `${r.row}-${r.column}`}
                dataSource={result.rejected}
                pagination={result.rejected.length > 10 ? { pageSize: 10 } : false}
                columns={[
                  { title: t('import.row', '行'), dataIndex: 'row', width: 64 },
                  {
                    title: t('import.column', '列'),
                    dataIndex: 'column',
                    width: 110,
                    render: (column: string) => columnLabel(column),
                  },
                  { title: t('import.reason', '原因'), dataIndex: 'message' },
                ]}
                data-testid="sim-import-rejected"
              />
            ) : null}
          </div>
        ) : null}
      </div>
    </Modal>
  );
}
