/**
 * Gateway secrets, shown this once (the server keeps only their SHA-256): each serial number
 * with its secret, a CSV (`SN,secret`) to download for flashing, and a warning that they
 * cannot be shown again. Closing before the secrets were downloaded or copied asks first.
 */
import { CopyOutlined, DownloadOutlined, WarningOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveText, toCsv } from '../../devices/csv';
import type { GatewaySecret } from '../api';

export function secretsCsv(secrets: readonly GatewaySecret[]): string {
  // plain ASCII without a byte-order mark: flashing tools read it as it is
  return toCsv([['SN', 'secret'], ...secrets.map((s) => [s.serialNumber, s.secret])], false);
}

export function SecretsModal({
  secrets,
  title,
  onClose,
}: {
  secrets: GatewaySecret[] | null;
  title: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('systemMaintenance');
  const { modal, message } = App.useApp();
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (secrets) setSaved(false);
  }, [secrets]);

  const download = () => {
    if (!secrets) return;
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
    saveText(secretsCsv(secrets), `gateway-secrets-${stamp}.csv`);
    setSaved(true);
  };

  const copy = async () => {
    if (!secrets) return;
    try {
      await navigator.clipboard.writeText(secretsCsv(secrets));
      message.success(t('secrets.copied', '已复制到剪贴板'));
      setSaved(true);
    } catch {
      message.warning(t('secrets.copyFailed', '浏览器不允许复制，请下载 CSV'));
    }
  };

  const close = () => {
    if (saved) {
      onClose();
      return;
    }
    modal.confirm({
      title: t('secrets.leaveTitle', '还没有保存密钥'),
      icon: <WarningOutlined style={{ color: '#faad14' }} />,
      content: t('secrets.leaveText', '关闭后这些密钥再也无法查看，只能重新生成。确定关闭吗？'),
      okText: t('secrets.leaveOk', '仍然关闭'),
      okButtonProps: { danger: true, 'data-testid': 'secrets-leave-ok' } as never,
      cancelText: t('secrets.stay', '返回保存'),
      onOk: onClose,
    });
  };

  return (
    <Modal
      open={secrets != null}
      title={title}
      onCancel={close}
      maskClosable={false}
      width={760}
      footer={[
        <Button key="copy" icon={<CopyOutlined />} onClick={copy}>
          {t('secrets.copy', '复制全部')}
        </Button>,
        <Button
          key="csv"
          type="primary"
          icon={<DownloadOutlined />}
          onClick={download}
          data-testid="secrets-download"
        >
          {t('secrets.download', '下载 CSV')}
        </Button>,
        <Button key="close" onClick={close} data-testid="secrets-close">
          {t('secrets.close', '关闭')}
        </Button>,
      ]}
    >
      <Alert
        type="warning"
        showIcon
        className="sm-gap"
        title={t('secrets.warningTitle', '密钥只显示这一次')}
        description={t(
          'secrets.warning',
          '平台只保存密钥的摘要，关闭此窗口后无法再次查看。请立即下载 CSV（SN,secret）用于烧录网关，并妥善保管；遗失后只能为该网关重新生成密钥。',
        )}
        data-testid="secrets-warning"
      />
      <Table
        rowKey="id"
        size="small"
        dataSource={secrets ?? []}
        pagination={(secrets?.length ?? 0) > 10 ? { pageSize: 10, showSizeChanger: false } : false}
        scroll={{ x: 560 }}
        columns={[
          {
            title: 'SN',
            dataIndex: 'serialNumber',
            width: 200,
            render: (sn: string) => <span className="dv-mono">{sn}</span>,
          },
          {
            title: t('secrets.secret', '密钥'),
            dataIndex: 'secret',
            render: (secret: string, row) => (
              <Typography.Text copyable className="dv-secret" data-testid={`secret-${row.serialNumber}`}>
                {secret}
              </Typography.Text>
            ),
          },
        ]}
        data-testid="secrets-table"
      />
    </Modal>
  );
}
