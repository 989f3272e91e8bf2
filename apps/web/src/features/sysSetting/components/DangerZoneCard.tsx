import { DeleteOutlined, ExclamationCircleOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Flex, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { CurrentCompany } from '../../../app/store/types';
import { refreshSession } from '../../../shared/sessionRefresh';
import { settingApi } from '../api';

/** Delete the current company: the person retypes its exact name first (spec point 5's pattern). */
export function DangerZoneCard({ company }: { company: CurrentCompany }) {
  const { t } = useTranslation('sysSetting');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [deleting, setDeleting] = useState(false);
  const matches = typed === company.name;

  const close = () => {
    setTyped('');
    setOpen(false);
  };

  const remove = async () => {
    setDeleting(true);
    try {
      const envelope = await settingApi.deleteCompany(company.id, typed);
      message.success(envelope.message);
      close();
      await refreshSession(navigate).catch(() => false);
    } catch {
      // the http client showed the error
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Card
      variant="outlined"
      className="setting-danger"
      title={
        <Typography.Text type="danger">
          <ExclamationCircleOutlined /> {t('danger.title', '危险操作')}
        </Typography.Text>
      }
      data-testid="danger-zone"
    >
      <Flex gap={16} align="center" justify="space-between" wrap>
        <div style={{ flex: '1 1 280px' }}>
          <Typography.Text strong>{t('danger.deleteTitle', '删除公司')}</Typography.Text>
          <br />
          <Typography.Text type="secondary">
            {company.isPlatform
              ? t('danger.platform', '这是平台运营公司，承载系统维护权限，不能删除。')
              : t('danger.deleteText', '删除后，所有成员将失去对本公司数据的访问，且无法恢复。')}
          </Typography.Text>
        </div>
        <Button
          danger
          icon={<DeleteOutlined />}
          disabled={company.isPlatform}
          onClick={() => setOpen(true)}
          data-testid="company-delete"
        >
          {t('danger.delete', '删除公司')}
        </Button>
      </Flex>
      <Modal
        open={open}
        title={t('danger.confirmTitle', '确认删除公司')}
        onCancel={close}
        okText={t('danger.confirmOk', '我已了解后果，删除此公司')}
        cancelText={t('common.cancel', '取消')}
        okButtonProps={{ danger: true, disabled: !matches, 'data-testid': 'company-delete-ok' }}
        confirmLoading={deleting}
        onOk={remove}
        destroyOnHidden
      >
        <Alert
          type="error"
          showIcon
          title={t('danger.confirmWarning', '此操作不可撤销。')}
          style={{ marginBottom: 16 }}
        />
        <Typography.Paragraph>
          {t('danger.confirmPrompt', '请输入公司名称')} <Typography.Text code>{company.name}</Typography.Text>{' '}
          {t('danger.confirmPromptAfter', '以确认删除：')}
        </Typography.Paragraph>
        <Input
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          placeholder={company.name}
          status={typed && !matches ? 'error' : undefined}
          autoComplete="off"
          data-testid="company-delete-confirm"
        />
      </Modal>
    </Card>
  );
}
