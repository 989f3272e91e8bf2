/**
 * A device's process flow chart (/flowChart/:deviceId/:deviceName, /FlowChart6E/…,
 * /nssFlowChart/…/:lang, /nssFlowChart4D/…, /NssVisualization/:deviceId, /nssPreview/:deviceId;
 * all one page): the device family's template placed on the device's points, live, drawn like a
 * configuration screen (values grey as they age, never passing for live). A device without a
 * chart offers its family: the template whose roles match most of its points is suggested, and
 * one click maps it. `/nssFlowChart`'s language parameter words the labels (zh or en).
 */
import { DashboardOutlined, DesktopOutlined, NodeIndexOutlined } from '@ant-design/icons';
import {
  autoMapCommands,
  autoMapRoles,
  type ElementView,
  type FamilyLang,
  INVERTER_FAMILY,
} from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Popconfirm, Result, Skeleton, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { currentLang } from '../../../app/i18n';
import { PageHeader } from '../../../shared/PageHeader';
import { LiveBanners } from '../../screens/components/LiveBanners';
import { LiveScreen } from '../../screens/components/LiveScreen';
import { SwitchDialog, type SwitchElement } from '../../screens/components/SwitchDialog';
import { mergeSamples, useLivePush, useServerNow } from '../../screens/live';
import { screenPaths } from '../../screens/paths';
import '../../screens/screens.css';
import { type FlowChartView, flowChartApi, flowChartKeys, useFlowChart, useFlowChartValues } from '../api';
import { MapDialog } from '../components/MapDialog';
import { flowChartPaths } from '../paths';

/** The template whose roles match most of the device's points by name, if any matches. */
function suggestion(view: FlowChartView) {
  let best: { id: number; matched: number; total: number } | null = null;
  for (const template of view.templates) {
    const map = autoMapRoles(template.roles, view.points);
    const matched = template.roles.filter((r) => map[r.key]).length;
    if (matched > 0 && (!best || matched / template.roles.length > best.matched / best.total))
      best = { id: template.id, matched, total: template.roles.length };
  }
  return best;
}

export default function FlowChartPage() {
  const { t } = useTranslation('flowcharts');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const params = useParams();
  const deviceId = Number(params.deviceId);
  const lang: FamilyLang = params.lang === 'en' || params.lang === 'zh' ? params.lang : currentLang();
  const chart = useFlowChart(deviceId, lang);
  const view = chart.data;
  const body = view?.chart?.body ?? null;
  const live = useLivePush(deviceId, body !== null);
  const values = useFlowChartValues(deviceId, body !== null);
  const samples = useMemo(() => mergeSamples(values.data, live.pushed), [values.data, live.pushed]);
  const now = useServerNow(values.data?.at, values.dataUpdatedAt);
  const [mapping, setMapping] = useState(false);
  const [pressed, setPressed] = useState<{ element: SwitchElement; view: ElementView } | null>(null);
  const suggested = useMemo(() => (view && !view.chart ? suggestion(view) : null), [view]);

  if (chart.isLoading) return <Skeleton active className="scr-page" />;
  if (!view)
    return (
      <Result
        status="404"
        title={t('chart.missing', '设备不存在或您无权查看')}
        data-testid="flowchart-missing"
        extra={<Button onClick={() => chart.refetch()}>{t('common.retry', '重试')}</Button>}
      />
    );

  const online = values.data?.online ?? view.device.online;
  const template = view.chart ? view.templates.find((x) => x.id === view.chart!.templateId) : undefined;
  const isInverter = template?.code === INVERTER_FAMILY;
  const applySuggestion = async () => {
    const chosen = view.templates.find((x) => x.id === suggested?.id);
    if (!chosen) return;
    try {
      const envelope = await flowChartApi.set(
        deviceId,
        chosen.id,
        autoMapRoles(chosen.roles, view.points),
        autoMapCommands(chosen.commands, view.commands),
      );
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: flowChartKeys.all });
    } catch {
      // the http client showed why
    }
  };
  const clear = async () => {
    try {
      const envelope = await flowChartApi.clear(deviceId);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: flowChartKeys.all });
    } catch {
      // the http client showed why
    }
  };
  const unmappedNames = view.chart
    ? view.chart.unmapped.map((key) => template?.roles.find((r) => r.key === key)?.name[lang] ?? key)
    : [];
  const unmappedCommands =
    view.chart && template ? template.commands.filter((name) => !view.chart!.commands[name]) : [];
  const hasSwitch = body?.elements.some((e) => e.type === 'switch') ?? false;

  return (
    <div className="scr-page" data-testid="flowchart-page" data-pushed={live.watching ? '1' : '0'}>
      <PageHeader
        title={
          <Space wrap size={8}>
            <span>{t('chart.title', '流程图')}</span>
            <Typography.Text type="secondary" className="scr-device-name">
              {view.device.name}
            </Typography.Text>
            {view.chart ? (
              <Tag color="blue" data-testid="flowchart-family">
                {view.chart.name}
              </Tag>
            ) : null}
            <Tag color={online ? 'green' : 'default'} data-testid="flowchart-online">
              {online ? t('chart.online', '在线') : t('chart.offline', '离线')}
            </Tag>
          </Space>
        }
        extra={
          <Space wrap>
            {isInverter ? (
              <Button
                icon={<DashboardOutlined />}
                onClick={() => navigate(flowChartPaths.inverter(view.device))}
                data-testid="flowchart-inverter-link"
              >
                {t('chart.inverter', '逆变器看板')}
              </Button>
            ) : null}
            <Button icon={<DesktopOutlined />} onClick={() => navigate(screenPaths.show(deviceId))}>
              {t('chart.screen', '组态画面')}
            </Button>
            {view.canEdit ? (
              <Button
                type={view.chart ? 'default' : 'primary'}
                icon={<NodeIndexOutlined />}
                onClick={() => setMapping(true)}
                data-testid="flowchart-choose"
              >
                {view.chart ? t('chart.change', '设备族与数据点') : t('chart.choose', '选择设备族')}
              </Button>
            ) : null}
            {view.canEdit && view.chart ? (
              <Popconfirm
                title={t('chart.clearConfirm', '移除此设备的流程图？模板本身不受影响。')}
                okText={t('chart.clear', '移除')}
                okButtonProps={{ danger: true }}
                cancelText={t('common.cancel', '取消')}
                onConfirm={clear}
              >
                <Button danger data-testid="flowchart-clear">
                  {t('chart.clear', '移除')}
                </Button>
              </Popconfirm>
            ) : null}
          </Space>
        }
      />
      {!body ? (
        <Result
          status="info"
          title={t('chart.empty', '此设备还没有流程图')}
          subTitle={
            view.canEdit
              ? suggested
                ? t(
                    'chart.suggested',
                    '按数据点名称，此设备像是“{{name}}”（{{matched}}/{{total}} 个角色有对应数据点）。',
                    {
                      name: view.templates.find((x) => x.id === suggested.id)?.name[lang],
                      matched: suggested.matched,
                      total: suggested.total,
                    },
                  )
                : t('chart.emptyHint', '选择它所属的设备族，并把设备族的角色对应到设备的数据点，无需绘制。')
              : t('chart.emptyReadOnly', '有读写权限的人可以为它选择设备族。')
          }
          extra={
            view.canEdit ? (
              <Space>
                {suggested ? (
                  <Button type="primary" onClick={applySuggestion} data-testid="flowchart-apply-suggestion">
                    {t('chart.apply', '使用“{{name}}”', {
                      name: view.templates.find((x) => x.id === suggested.id)?.name[lang],
                    })}
                  </Button>
                ) : null}
                <Button onClick={() => setMapping(true)}>{t('chart.choose', '选择设备族')}</Button>
              </Space>
            ) : null
          }
          data-testid="flowchart-empty"
        />
      ) : (
        <>
          <LiveBanners
            online={online}
            failed={values.isError}
            hidden={values.data?.hidden ?? 0}
            offlineText={t(
              'chart.offlineBanner',
              '设备离线：流程图显示的是最后收到的数据，过期的数值以灰色显示。',
            )}
            testIdPrefix="flowchart"
          />
          {unmappedNames.length > 0 ? (
            <Alert
              type="info"
              showIcon
              className="scr-banner"
              data-testid="flowchart-unmapped"
              title={t('chart.unmapped', '{{count}} 个角色没有对应的数据点，不显示数值：{{names}}', {
                count: unmappedNames.length,
                names: unmappedNames.join('、'),
              })}
            />
          ) : null}
          {unmappedCommands.length > 0 ? (
            <Alert
              type="info"
              showIcon
              className="scr-banner"
              data-testid="flowchart-unmapped-commands"
              title={t(
                'chart.unmappedCommands',
                '{{count}} 个开关指令没有对应的设备指令，开关不会发送它们：{{names}}',
                { count: unmappedCommands.length, names: unmappedCommands.join('、') },
              )}
            />
          ) : null}
          <div className="scr-live-box">
            <LiveScreen
              body={body}
              samples={samples}
              now={now}
              switchEnabled={view.canEdit}
              label={`${t('chart.title', '流程图')} ${view.device.name}`}
              onSwitch={(element, v) => setPressed({ element, view: v })}
            />
          </div>
          {!view.canEdit && hasSwitch ? (
            <Typography.Text type="secondary" data-testid="flowchart-readonly">
              {t('chart.readOnly', '您对此设备只有查看权限，开关不可操作。')}
            </Typography.Text>
          ) : null}
        </>
      )}
      <SwitchDialog
        deviceId={deviceId}
        element={pressed?.element ?? null}
        view={pressed?.view ?? null}
        onClose={() => setPressed(null)}
        send={flowChartApi.switch}
      />
      {mapping ? <MapDialog view={view} lang={lang} open onClose={() => setMapping(false)} /> : null}
    </div>
  );
}
