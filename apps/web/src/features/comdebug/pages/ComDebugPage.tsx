/**
 * /comDebug, the serial debug assistant (code cd_device; docs/comdebug.md): choose a port (this
 * computer's through Web Serial where the browser has it, or a port of a bound online gateway
 * you may operate, through its passthrough), send hex (by the seed's hex rule, checked as typed,
 * optionally with the CRC-16/Modbus appended) or ASCII, and read a receive log with
 * millisecond timestamps, TX/RX marked, in hex or ASCII; clear it, export it as a text file.
 * `?device=<id>` chooses that gateway.
 */
import { ApiOutlined, ClearOutlined, DownloadOutlined, SendOutlined } from '@ant-design/icons';
import { DATA_PERMISSION, messageFor, toHex } from '@platform/domain';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  Empty,
  Input,
  InputNumber,
  Radio,
  Row,
  Segmented,
  Select,
  Space,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { get } from '../../../app/http/client';
import { session } from '../../../app/store/session';
import type { Page } from '../../../shared/paging';
import type { DeviceRow } from '../../devices/api';
import {
  type Connection,
  type Ended,
  gatewayConnection,
  type SerialSettings,
  serialConnection,
  webSerial,
} from '../connection';
import {
  BAUD_RATES,
  buildBytes,
  clock,
  DATA_BITS,
  exportText,
  type LogLine,
  lineText,
  MAX_SEND_BYTES,
  modbusRead,
  PARITIES,
  type SendMode,
  STOP_BITS,
  type ViewMode,
} from '../model';
import '../comdebug.css';

type Target = 'serial' | 'gateway';
type State = 'idle' | 'opening' | 'open';

/** lines kept in the log; the oldest go first */
const MAX_LINES = 2000;

function useGateways() {
  return useQuery({
    queryKey: ['comdebug', 'gateways'],
    queryFn: () =>
      get<Page<DeviceRow & { ports: Array<{ port: number; ok: boolean }> }>>(
        '/devicemanagement/device/list',
        {
          pageNum: 1,
          pageSize: 100,
          sort: 'name',
          order: 'asc',
        },
      ),
  });
}

export default function ComDebugPage() {
  const { t, i18n } = useTranslation('comdebug');
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [params] = useSearchParams();
  const wanted = Number(params.get('device')) || null;
  const hasSerial = webSerial() !== null;
  const [target, setTarget] = useState<Target>(hasSerial && !wanted ? 'serial' : 'gateway');
  const gateways = useGateways();
  const rows = gateways.data?.list ?? [];
  const [deviceId, setDeviceId] = useState<number | null>(wanted);
  const device = rows.find((d) => d.id === deviceId) ?? null;
  const [port, setPort] = useState<number | null>(null);
  const [settings, setSettings] = useState<SerialSettings>({
    baudRate: 9600,
    dataBits: 8,
    stopBits: 1,
    parity: 'none',
  });

  const [state, setState] = useState<State>('idle');
  const [ended, setEnded] = useState<Ended | null>(null);
  const connection = useRef<Connection | null>(null);

  const [mode, setMode] = useState<SendMode>('hex');
  const [text, setText] = useState('');
  const [crc, setCrc] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const [quick, setQuick] = useState({ slave: 1, address: 0, count: 2 });

  const [lines, setLines] = useState<LogLine[]>([]);
  const [view, setView] = useState<ViewMode>('hex');
  const [autoScroll, setAutoScroll] = useState(true);
  const logEnd = useRef<HTMLDivElement | null>(null);
  const nextId = useRef(1);

  // the first port of the chosen gateway
  useEffect(() => {
    if (device && (port === null || !device.ports.some((p) => p.port === port)))
      setPort(device.ports[0]?.port ?? null);
  }, [device, port]);
  useEffect(() => () => connection.current?.close(), []);
  useEffect(() => {
    if (autoScroll && lines.length) logEnd.current?.scrollIntoView({ block: 'nearest' });
  }, [lines, autoScroll]);

  const built = useMemo(() => buildBytes(text, mode, crc), [text, mode, crc]);
  const problem = (() => {
    if (built.ok || text === '') return null;
    switch (built.key) {
      case 'tooLong':
        return messageFor('passthroughTooLong', lang, { max: MAX_SEND_BYTES });
      case 'notAscii':
        return t('send.notAscii', '只能发送可打印的 ASCII 字符（以及 \\r \\n \\t）');
      case 'empty':
        return null;
      default:
        return messageFor(built.key, lang);
    }
  })();

  const add = (dir: LogLine['dir'], bytes: Uint8Array, at: string) =>
    setLines((old) => {
      const next = [...old, { id: nextId.current++, dir, at, bytes }];
      return next.length > MAX_LINES ? next.slice(next.length - MAX_LINES) : next;
    });

  const events = {
    opened: () => setState('open'),
    tx: (bytes: Uint8Array, at: string) => add('TX', bytes, at),
    rx: (bytes: Uint8Array, at: string) => add('RX', bytes, at),
    refused: (message: string) => setRefused(message),
    ended: (reason: Ended | null) => {
      connection.current = null;
      setState('idle');
      setEnded(reason);
    },
  };

  const open = async () => {
    setEnded(null);
    setRefused(null);
    setState('opening');
    try {
      if (target === 'gateway') {
        const token = session.get().token;
        if (!token || !deviceId || port === null) {
          setState('idle');
          return;
        }
        connection.current = gatewayConnection(token, deviceId, port, events);
      } else {
        connection.current = await serialConnection(settings, events);
      }
    } catch (error) {
      setState('idle');
      // the person closed the browser's port chooser: nothing to say
      if (!(error instanceof DOMException && error.name === 'NotFoundError'))
        setEnded({ code: 0, message: String(error instanceof Error ? error.message : error) });
    }
  };

  const close = () => connection.current?.close();

  const send = async () => {
    if (!built.ok || !connection.current) return;
    setRefused(null);
    await connection.current.send(built.bytes);
  };

  const download = () => {
    const blob = new Blob([exportText(lines, view)], { type: 'text/plain;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `comdebug-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const operable = rows.filter((d) => d.online && d.level >= DATA_PERMISSION.write);
  const busy = state !== 'idle';
  const canOpen =
    !busy &&
    (target === 'serial' ? hasSerial : deviceId !== null && port !== null && device?.online === true);

  const targetCard = (
    <Card
      variant="borderless"
      title={t('target.title', '选择端口')}
      className="cd-card"
      data-testid="comdebug-target"
    >
      <Radio.Group
        value={target}
        onChange={(e) => setTarget(e.target.value)}
        disabled={busy}
        className="cd-targets"
        data-testid="comdebug-target-kind"
      >
        <Radio value="serial" disabled={!hasSerial} data-testid="comdebug-target-serial">
          {t('target.serial', '本机串口（Web Serial）')}
        </Radio>
        <Radio value="gateway" data-testid="comdebug-target-gateway">
          {t('target.gateway', '网关的串口（透传）')}
        </Radio>
      </Radio.Group>
      {hasSerial ? null : (
        <Typography.Paragraph type="secondary" className="cd-hint" data-testid="comdebug-no-serial">
          {t(
            'target.noSerial',
            '此浏览器不支持 Web Serial，无法使用本机串口：请使用桌面版 Chrome 或 Edge（通过 https 或 localhost 打开），或选择网关的串口。',
          )}
        </Typography.Paragraph>
      )}
      {target === 'gateway' ? (
        <Space direction="vertical" className="cd-full">
          <Select
            className="cd-full"
            showSearch
            optionFilterProp="label"
            placeholder={t('target.pickGateway', '选择在线且您可操作的网关')}
            value={deviceId ?? undefined}
            onChange={(id: number) => setDeviceId(id)}
            disabled={busy}
            loading={gateways.isFetching}
            notFoundContent={t('target.noGateway', '没有在线且您有读写权限的网关')}
            options={rows.map((d) => ({
              value: d.id,
              label: `${d.name} (${d.serialNumber})`,
              disabled: !d.online || d.level < DATA_PERMISSION.write,
              title: !d.online
                ? t('target.offline', '离线')
                : d.level < DATA_PERMISSION.write
                  ? t('target.needWrite', '需要此设备的读写权限')
                  : undefined,
            }))}
            data-testid="comdebug-gateway"
          />
          {rows.length > 0 && operable.length === 0 ? (
            <Typography.Text type="secondary">
              {t('target.noGateway', '没有在线且您有读写权限的网关')}
            </Typography.Text>
          ) : null}
          {device ? (
            <Select
              className="cd-full"
              value={port ?? undefined}
              onChange={(p: number) => setPort(p)}
              disabled={busy}
              placeholder={t('target.port', '端口')}
              options={device.ports.map((p) => ({
                value: p.port,
                label: `${t('target.portN', '端口 {{n}}', { n: p.port })}${p.ok ? '' : ` · ${t('target.portError', '异常')}`}`,
              }))}
              data-testid="comdebug-port"
            />
          ) : null}
        </Space>
      ) : (
        <Row gutter={[8, 8]}>
          <Col span={12}>
            <Typography.Text type="secondary">{t('serial.baud', '波特率')}</Typography.Text>
            <Select
              className="cd-full"
              value={settings.baudRate}
              disabled={busy}
              onChange={(baudRate: number) => setSettings({ ...settings, baudRate })}
              options={BAUD_RATES.map((b) => ({ value: b, label: String(b) }))}
            />
          </Col>
          <Col span={12}>
            <Typography.Text type="secondary">{t('serial.dataBits', '数据位')}</Typography.Text>
            <Select
              className="cd-full"
              value={settings.dataBits}
              disabled={busy}
              onChange={(dataBits: 7 | 8) => setSettings({ ...settings, dataBits })}
              options={DATA_BITS.map((b) => ({ value: b, label: String(b) }))}
            />
          </Col>
          <Col span={12}>
            <Typography.Text type="secondary">{t('serial.stopBits', '停止位')}</Typography.Text>
            <Select
              className="cd-full"
              value={settings.stopBits}
              disabled={busy}
              onChange={(stopBits: 1 | 2) => setSettings({ ...settings, stopBits })}
              options={STOP_BITS.map((b) => ({ value: b, label: String(b) }))}
            />
          </Col>
          <Col span={12}>
            <Typography.Text type="secondary">{t('serial.parity', '校验位')}</Typography.Text>
            <Select
              className="cd-full"
              value={settings.parity}
              disabled={busy}
              onChange={(parity: SerialSettings['parity']) => setSettings({ ...settings, parity })}
              options={PARITIES.map((p) => ({ value: p.web, label: t(`serial.parity${p.id}`, p.web) }))}
            />
          </Col>
        </Row>
      )}
      <div className="cd-connect">
        {busy ? (
          <Button onClick={close} data-testid="comdebug-close">
            {t('connect.close', '关闭端口')}
          </Button>
        ) : (
          <Button
            type="primary"
            icon={<ApiOutlined />}
            disabled={!canOpen}
            onClick={() => void open()}
            data-testid="comdebug-open"
          >
            {t('connect.open', '打开端口')}
          </Button>
        )}
        <Tag
          color={state === 'open' ? 'green' : state === 'opening' ? 'blue' : 'default'}
          data-testid="comdebug-state"
        >
          {t(`state.${state}`, state)}
        </Tag>
      </div>
      {ended ? (
        <Alert
          className="cd-alert"
          type="warning"
          showIcon
          message={ended.message}
          data-testid="comdebug-ended"
        />
      ) : null}
    </Card>
  );

  const sendCard = (
    <Card
      variant="borderless"
      title={t('send.title', '发送')}
      className="cd-card"
      data-testid="comdebug-send"
    >
      <Space wrap className="cd-send-options">
        <Segmented
          value={mode}
          onChange={(v) => setMode(v as SendMode)}
          options={[
            { value: 'hex', label: 'HEX' },
            { value: 'ascii', label: 'ASCII' },
          ]}
          data-testid="comdebug-mode"
        />
        <Checkbox checked={crc} onChange={(e) => setCrc(e.target.checked)} data-testid="comdebug-crc">
          {t('send.crc', '追加 CRC-16/Modbus 校验')}
        </Checkbox>
      </Space>
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        autoSize={{ minRows: 2, maxRows: 6 }}
        placeholder={mode === 'hex' ? '01 03 00 00 00 02' : 'AT+VER?\\r\\n'}
        status={problem ? 'error' : undefined}
        className="cd-mono"
        data-testid="comdebug-text"
      />
      {problem ? (
        <Typography.Text type="danger" data-testid="comdebug-text-error">
          {problem}
        </Typography.Text>
      ) : null}
      {built.ok ? (
        <div className="cd-preview" data-testid="comdebug-preview">
          <Typography.Text type="secondary">
            {t('send.willSend', '将发送 {{n}} 个字节：', { n: built.bytes.length })}
          </Typography.Text>
          <code className="cd-mono">{toHex(built.bytes)}</code>
        </div>
      ) : null}
      {refused ? (
        <Alert className="cd-alert" type="error" showIcon message={refused} data-testid="comdebug-refused" />
      ) : null}
      <div className="cd-send-row">
        <Button
          type="primary"
          icon={<SendOutlined />}
          disabled={!built.ok || state !== 'open'}
          onClick={() => void send()}
          data-testid="comdebug-send-button"
        >
          {t('send.send', '发送')}
        </Button>
        <Tooltip title={t('quick.hint', '填入 Modbus RTU 读保持寄存器（功能码 03）并追加 CRC')}>
          <div className="cd-quick">
            <InputNumber
              min={1}
              max={247}
              value={quick.slave}
              onChange={(v) => setQuick({ ...quick, slave: v ?? 1 })}
              addonBefore={t('quick.slave', '从站')}
              className="cd-quick-num"
              data-testid="comdebug-quick-slave"
            />
            <InputNumber
              min={0}
              max={65535}
              value={quick.address}
              onChange={(v) => setQuick({ ...quick, address: v ?? 0 })}
              addonBefore={t('quick.address', '地址')}
              className="cd-quick-num"
            />
            <InputNumber
              min={1}
              max={125}
              value={quick.count}
              onChange={(v) => setQuick({ ...quick, count: v ?? 1 })}
              addonBefore={t('quick.count', '数量')}
              className="cd-quick-num"
            />
            <Button
              onClick={() => {
                setMode('hex');
                setCrc(true);
                setText(modbusRead(quick.slave, quick.address, quick.count));
              }}
              data-testid="comdebug-quick"
            >
              {t('quick.fill', 'Modbus 读')}
            </Button>
          </div>
        </Tooltip>
      </div>
    </Card>
  );

  const logCard = (
    <Card
      variant="borderless"
      title={t('log.title', '收发记录')}
      className="cd-card cd-log-card"
      data-testid="comdebug-log"
    >
      <div className="cd-log-tools">
        <Space wrap size={4}>
          <Segmented
            size="small"
            value={view}
            onChange={(v) => setView(v as ViewMode)}
            options={[
              { value: 'hex', label: 'HEX' },
              { value: 'ascii', label: 'ASCII' },
            ]}
            data-testid="comdebug-view"
          />
          <Checkbox checked={autoScroll} onChange={(e) => setAutoScroll(e.target.checked)}>
            {t('log.autoScroll', '自动滚动')}
          </Checkbox>
          <Button
            size="small"
            icon={<ClearOutlined />}
            onClick={() => setLines([])}
            data-testid="comdebug-clear"
          >
            {t('log.clear', '清空')}
          </Button>
          <Button
            size="small"
            icon={<DownloadOutlined />}
            disabled={lines.length === 0}
            onClick={download}
            data-testid="comdebug-export"
          >
            {t('log.export', '导出')}
          </Button>
        </Space>
      </div>
      <div className="cd-log cd-mono" data-testid="comdebug-lines">
        {lines.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={t('log.empty', '打开端口并发送数据后，收发的字节会显示在这里')}
          />
        ) : (
          lines.map((line) => (
            <div
              key={line.id}
              className={`cd-line cd-${line.dir.toLowerCase()}`}
              data-testid={`comdebug-line-${line.dir}`}
            >
              <span className="cd-time">{clock(line.at)}</span>
              <Tag color={line.dir === 'TX' ? 'blue' : 'green'} className="cd-dir">
                {line.dir}
              </Tag>
              <span className="cd-bytes">{lineText(line, view)}</span>
            </div>
          ))
        )}
        <div ref={logEnd} />
      </div>
    </Card>
  );

  return (
    <div className="cd-page" data-testid="comdebug-page">
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={9}>
          <Space direction="vertical" size={16} className="cd-full">
            {targetCard}
            {sendCard}
          </Space>
        </Col>
        <Col xs={24} lg={15}>
          {logCard}
        </Col>
      </Row>
    </div>
  );
}
