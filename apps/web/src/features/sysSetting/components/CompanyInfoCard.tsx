import { DeleteOutlined, SaveOutlined, UploadOutlined } from '@ant-design/icons';
import { DEFAULT_TIME_ZONE, isIanaTimeZone } from '@platform/domain';
import {
  App,
  Button,
  Card,
  Col,
  Flex,
  Form,
  Image,
  Input,
  Popconfirm,
  Row,
  Select,
  Skeleton,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LOGO } from '../../../app/layout/Sidebar';
import type { CurrentCompany } from '../../../app/store/types';
import { ImageUpload } from '../../../shared/ImageUpload';
import { NAME_COUNT, nameRules } from '../../../shared/rules';
import { browserZone, offsetLabel } from '../../../shared/time';
import { validated } from '../../../shared/validated';
import { logoOf, settingApi } from '../api';

interface Values {
  name: string;
  displayName: string;
  timeZone: string;
}

/** Every zone the browser knows, as "Asia/Shanghai (UTC+8)" */
function zoneOptions(): { value: string; label: string }[] {
  const names = new Set<string>(
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [],
  );
  names.add('UTC');
  names.add(DEFAULT_TIME_ZONE);
  names.add(browserZone());
  const now = Date.now();
  return [...names]
    .filter((zone) => isIanaTimeZone(zone))
    .sort()
    .map((zone) => ({ value: zone, label: `${zone} (${offsetLabel(zone, now)})` }));
}

/** The current company's logo (upload, preview, remove) and names. */
export function CompanyInfoCard({
  company,
  loading,
  onChanged,
}: {
  company: CurrentCompany | undefined;
  loading: boolean;
  onChanged: () => Promise<unknown>;
}) {
  const { t } = useTranslation('sysSetting');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [saving, setSaving] = useState(false);
  const logo = logoOf(company);
  const zones = useMemo(zoneOptions, []);
  const productTitle = t('menu.productTitle', { ns: 'translation', defaultValue: '智慧数据平台' });

  useEffect(() => {
    if (company)
      form.setFieldsValue({
        name: company.name,
        displayName: company.displayName ?? '',
        timeZone: company.timeZone ?? DEFAULT_TIME_ZONE,
      });
  }, [company, form]);

  const runLogo = async (action: () => Promise<{ message: string }>) => {
    setBusy(true);
    try {
      const envelope = await action();
      message.success(envelope.message);
      await onChanged();
    } catch {
      // the http client showed the error
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await settingApi.updateCompany({
        name: values.name.trim(),
        displayName: values.displayName.trim(),
        timeZone: values.timeZone,
      });
      message.success(envelope.message);
      await onChanged();
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  const nameMessages = {
    required: t('rules.nameRequired', '请输入名称'),
    tooLong: t('rules.nameTooLong', '名称长度不能超过 25 个字符'),
  };

  return (
    <Card variant="borderless" title={t('company.title', '公司信息')} data-testid="company-info">
      {loading && !company ? (
        <Skeleton active />
      ) : (
        <Row gutter={[32, 24]}>
          <Col xs={24} md={8} lg={7}>
            <Flex vertical align="center" gap={12}>
              <div className="setting-logo-frame">
                <Image
                  src={logo.thumb ?? DEFAULT_LOGO}
                  fallback={DEFAULT_LOGO}
                  alt=""
                  width={112}
                  height={112}
                  style={{ objectFit: 'contain' }}
                  preview={logo.full ? { src: logo.full } : false}
                  data-testid="company-logo"
                />
              </div>
              <Typography.Title
                level={5}
                style={{ margin: 0, textAlign: 'center' }}
                data-testid="company-shown-name"
              >
                {company?.displayName || productTitle}
              </Typography.Title>
              {logo.thumb ? null : (
                <Tag data-testid="company-logo-default">{t('company.defaultLogo', '默认标志')}</Tag>
              )}
              <Flex gap={8} wrap justify="center">
                <ImageUpload
                  testId="logo-upload"
                  disabled={busy}
                  onFile={(file) => runLogo(() => settingApi.uploadLogo(file))}
                >
                  <Button icon={<UploadOutlined />} size="small" loading={busy}>
                    {t('company.uploadLogo', '上传标志')}
                  </Button>
                </ImageUpload>
                {logo.thumb ? (
                  <Popconfirm
                    title={t('company.removeLogoConfirm', '确定移除公司标志吗？移除后显示默认标志。')}
                    okText={t('common.ok', '确定')}
                    cancelText={t('common.cancel', '取消')}
                    onConfirm={() => runLogo(() => settingApi.removeLogo())}
                  >
                    <Button icon={<DeleteOutlined />} size="small" disabled={busy} data-testid="logo-remove">
                      {t('company.removeLogo', '移除')}
                    </Button>
                  </Popconfirm>
                ) : null}
              </Flex>
              <Typography.Text type="secondary" style={{ fontSize: 12, textAlign: 'center' }}>
                {t('company.logoHint', 'JPG 或 PNG，不超过 3 MB；侧边栏显示 150 像素缩略图')}
              </Typography.Text>
            </Flex>
          </Col>
          <Col xs={24} md={16} lg={17}>
            <Form form={form} layout="vertical" data-testid="company-form" style={{ maxWidth: 480 }}>
              <Form.Item
                name="displayName"
                label={t('company.displayName', '显示名称')}
                extra={t('company.displayNameHint', '显示在侧边栏顶部和公司切换菜单中')}
                rules={nameRules(nameMessages)}
              >
                <Input count={NAME_COUNT} placeholder={productTitle} data-testid="company-display-name" />
              </Form.Item>
              <Form.Item
                name="name"
                label={t('company.name', '公司名称')}
                extra={t('company.nameHint', '公司的正式名称，全平台唯一；删除公司时需输入此名称确认')}
                rules={nameRules(nameMessages)}
              >
                <Input count={NAME_COUNT} data-testid="company-name" />
              </Form.Item>
              <Form.Item
                name="timeZone"
                label={t('company.timeZone', '时区')}
                extra={t(
                  'company.timeZoneHint',
                  '数据记录、表单录入、报表、分析和文档中的时间都按此时区显示和录入，每天从此时区的零点开始',
                )}
                rules={[
                  {
                    required: true,
                    validator: async (_rule, value: unknown) => {
                      if (!isIanaTimeZone(value))
                        throw new Error(t('rules.timeZoneInvalid', '请选择 IANA 时区，例如 Asia/Shanghai'));
                    },
                  },
                ]}
              >
                <Select
                  showSearch={{ optionFilterProp: 'label' }}
                  options={zones}
                  data-testid="company-time-zone"
                  aria-label={t('company.timeZone', '时区')}
                />
              </Form.Item>
              <Button
                type="primary"
                icon={<SaveOutlined />}
                loading={saving}
                onClick={save}
                data-testid="company-save"
              >
                {t('common.save', '保存')}
              </Button>
            </Form>
          </Col>
        </Row>
      )}
    </Card>
  );
}
