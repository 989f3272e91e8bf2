/**
 * One gateway of the registry (/systemMaintenance/sysgatewaydetail/{id}, system_gateway):
 * what it last reported, a bind request waiting on it, its telemetry counts; replacing its
 * secret (the new one shown once; the old one stops at once) and removing a registration that
 * was never bound. The tab reads the serial number.
 */
import { ArrowLeftOutlined, DeleteOutlined, KeyOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Badge,
  Button,
  Card,
  Descriptions,
  Flex,
  Grid,
  Result,
  Skeleton,
  Tag,
  Tooltip,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useViewName } from '../../../app/layout/tags';
import { formatTime } from '../../../shared/time';
import { STATUS_COLORS } from '../../devices/components/DeviceBits';
import { type GatewaySecret, registryApi, registryKeys, useRegistryDetail } from '../api';
import { SecretsModal } from '../components/SecretsModal';
import '../../devices/devices.css';
import '../systemMaintenance.css';

const REGISTRY = '/systemMaintenance/systemgateway';
const time = (value: string | null | undefined) => (value ? formatTime(value) : '—');

export default function GatewayDetailPage() {
  const { t } = useTranslation('systemMaintenance');
  const { t: td } = useTranslation('devices');
  const { modal, message } = App.useApp();
  const client = useQueryClient();
  const navigate = useNavigate();
  const screens = Grid.useBreakpoint();
  const id = Number(useParams().id);
  const detail = useRegistryDetail(id);
  const gateway = detail.data;
  const [secret, setSecret] = useState<GatewaySecret[] | null>(null);
  useViewName(gateway?.serialNumber);

  if (detail.isLoading) return <Skeleton active />;
  if (!gateway)
    return (
      <Result
        status="404"
        title={t('detail.gone', '网关不存在')}
        extra={<Link to={REGISTRY}>{t('detail.back', '返回网关登记')}</Link>}
      />
    );

  const replace = () =>
    modal.confirm({
      title: t('detail.replaceTitle', '为 {{sn}} 重新生成密钥？', { sn: gateway.serialNumber }),
      content: t(
        'detail.replaceText',
        '旧密钥立即失效，正在连接的网关会被断开，直到烧录新密钥后才能再连接。新密钥只显示一次。',
      ),
      okText: t('detail.replaceOk', '重新生成'),
      okButtonProps: { danger: true, 'data-testid': 'replace-ok' } as never,
      cancelText: t('common.cancel', '取消'),
      onOk: async () => {
        try {
          const envelope = await registryApi.replaceSecret(gateway.id);
          setSecret([envelope.data]);
          void client.invalidateQueries({ queryKey: registryKeys.all });
        } catch {
          // the http client showed why
        }
      },
    });

  const removable = gateway.company === null && gateway.pendingBind === null;
  const remove = () =>
    modal.confirm({
      title: t('detail.removeTitle', '删除 {{sn}} 的登记？', { sn: gateway.serialNumber }),
      content: t(
        'detail.removeText',
        '只能删除从未绑定过的登记（例如输错的序列号）。删除后该网关无法再连接平台。',
      ),
      okText: t('common.delete', '删除'),
      okButtonProps: { danger: true, 'data-testid': 'remove-ok' } as never,
      cancelText: t('common.cancel', '取消'),
      onOk: async () => {
        try {
          const envelope = await registryApi.remove(gateway.id);
          message.success(envelope.message);
          navigate(REGISTRY);
          // the removed gateway's detail is not asked for again
          client.removeQueries({ queryKey: registryKeys.detail(gateway.id) });
          void client.invalidateQueries({ queryKey: registryKeys.lists });
        } catch {
          // the http client showed why (a gateway bound before keeps its registration)
        }
      },
    });

  const refusal = gateway.telemetry.lastRefusal;
  return (
    <Card
      variant="borderless"
      data-testid="registry-detail-page"
      title={
        <Flex gap={12} align="center" wrap>
          <Link to={REGISTRY}>
            <ArrowLeftOutlined />
          </Link>
          <span className="dv-mono">{gateway.serialNumber}</span>
          <Tag color={STATUS_COLORS[gateway.status]}>{td(`status.${gateway.status}`, gateway.status)}</Tag>
          <Badge
            status={gateway.online ? 'success' : 'default'}
            text={gateway.online ? td('online.on', '在线') : td('online.off', '离线')}
          />
        </Flex>
      }
    >
      <Flex gap={8} wrap className="sm-gap">
        <Button icon={<KeyOutlined />} onClick={replace} data-testid="registry-replace">
          {t('detail.replace', '重新生成密钥')}
        </Button>
        <Tooltip title={removable ? null : t('detail.removeBound', '已绑定或正在等待绑定的网关不能删除')}>
          <Button
            danger
            icon={<DeleteOutlined />}
            disabled={!removable}
            onClick={remove}
            data-testid="registry-remove"
          >
            {t('detail.remove', '删除登记')}
          </Button>
        </Tooltip>
      </Flex>
      {gateway.pendingBind ? (
        <Alert
          className="sm-gap"
          type="info"
          showIcon
          title={t('detail.pending', '“{{company}}”的绑定请求正在等待设备确认，{{time}} 过期', {
            company: gateway.pendingBind.companyName,
            time: time(gateway.pendingBind.expiresAt),
          })}
        />
      ) : null}
      <Descriptions
        bordered
        size="small"
        column={screens.md ? 2 : 1}
        items={[
          { key: 'sn', label: 'SN', children: <span className="dv-mono">{gateway.serialNumber}</span> },
          { key: 'model', label: td('fields.model', '型号'), children: gateway.model },
          {
            key: 'company',
            label: t('registry.company', '所属公司'),
            children: gateway.company?.name ?? t('registry.unbound', '未绑定'),
          },
          { key: 'firmware', label: td('fields.firmware', '固件版本'), children: gateway.firmware ?? '—' },
          {
            key: 'registeredAt',
            label: t('registry.registeredAt', '登记时间'),
            children: time(gateway.registeredAt),
          },
          {
            key: 'secretSetAt',
            label: t('detail.secretSetAt', '密钥生成时间'),
            children: time(gateway.secretSetAt),
          },
          { key: 'boundAt', label: t('registry.boundAt', '绑定时间'), children: time(gateway.boundAt) },
          {
            key: 'lastSeenAt',
            label: td('fields.lastSeenAt', '最近通信'),
            children: time(gateway.lastSeenAt),
          },
          { key: 'onlineAt', label: td('fields.onlineAt', '上线时间'), children: time(gateway.onlineAt) },
          { key: 'offlineAt', label: td('fields.offlineAt', '离线时间'), children: time(gateway.offlineAt) },
          { key: 'iccid', label: td('fields.iccid', 'SIM 卡 ICCID'), children: gateway.iccid ?? '—' },
          {
            key: 'config',
            label: td('fields.config', '运行配置'),
            children:
              gateway.configVersion != null
                ? `${td('fields.configVersion', '版本 {{v}}', { v: gateway.configVersion })}${gateway.configHash ? ` · ${gateway.configHash.slice(0, 12)}` : ''}`
                : '—',
          },
          {
            key: 'ports',
            label: td('detail.ports', '端口状态'),
            span: screens.md ? 2 : 1,
            children: gateway.ports.length ? (
              <Flex gap={6} wrap>
                {gateway.ports.map((p) => (
                  <Tag key={p.port} color={p.ok ? 'success' : 'error'}>
                    {td('ports.port', '端口 {{n}}', { n: p.port })}
                    {p.ok ? '' : ` · ${p.error ?? ''}`}
                  </Tag>
                ))}
              </Flex>
            ) : (
              '—'
            ),
          },
          {
            key: 'telemetry',
            label: td('detail.telemetry', 'JSON 数据上报'),
            span: screens.md ? 2 : 1,
            children: (
              <span>
                {td('telemetry.ok', '已入库')} {gateway.telemetry.ok} · {td('telemetry.refused', '被拒绝')}{' '}
                {gateway.telemetry.refused} · {td('telemetry.dropped', '未绑定时丢弃')}{' '}
                {gateway.telemetry.dropped}
                {refusal ? ` · ${refusal.message}` : ''}
              </span>
            ),
          },
        ]}
      />
      <SecretsModal
        secrets={secret}
        title={t('secrets.replacedTitle', '{{sn}} 的新密钥', { sn: gateway.serialNumber })}
        onClose={() => setSecret(null)}
      />
    </Card>
  );
}
