import { FunctionOutlined } from '@ant-design/icons';
import {
  checkHexPacket,
  crcOfFrame,
  ENCODINGS,
  frameEndsInCrc,
  MAX_PACKET_BYTES,
  modbusReadOf,
  parseHex,
  SAMPLING_IDS,
  SERIAL_VALUE_TYPES,
  sentBytes,
} from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  Radio,
  Result,
  Select,
  Skeleton,
  Switch,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../../../app/http/client';
import { useSession } from '../../../app/store/session';
import { NAME_COUNT, nameRules } from '../../../shared/rules';
import { validated } from '../../../shared/validated';
import { dcApi, dcKeys, type PacketInput, usePacket } from '../api';
import { FrameText } from '../components/FrameText';
import { useLabels } from '../components/labels';
import { dcPaths } from '../paths';
import '../devicecommunication.css';

const DEFAULTS: PacketInput = {
  name: '',
  frame: '',
  appendCrc: true,
  valueType: 'byte',
  encoding: 'HEX',
  samplingId: 1,
};

const ESCAPES: Record<number, string> = { 13: '\\r', 10: '\\n', 9: '\\t' };

/** The bytes as ASCII text, other bytes escaped ("#01\\r", "\\x02"). */
function asciiView(bytes: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b >= 0x20 && b <= 0x7e) out += String.fromCharCode(b);
    else out += ESCAPES[b] ?? `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** What the frame as typed sends, for the lines under the frame: its CRC, a Modbus read it is, a CRC typed twice. */
function FrameFacts({ frame, appendCrc, encoding }: Pick<PacketInput, 'frame' | 'appendCrc' | 'encoding'>) {
  const { t } = useLabels();
  if (!frame || checkHexPacket(frame)) return null;
  const crc = appendCrc ? crcOfFrame(frame) : null;
  const sent = sentBytes({ frame, appendCrc });
  const read = sent ? modbusReadOf(sent) : null;
  const ascii = encoding === 'ASCII' ? asciiView(parseHex(frame) ?? []) : null;
  return (
    <div className="dc-facts" data-testid="packet-facts">
      {crc ? (
        <div>
          {t('packet.crcAppended', '追加的 CRC-16/Modbus（低字节在前）：')}
          <span className="dc-crc dc-mono" data-testid="packet-crc">
            {crc}
          </span>
        </div>
      ) : null}
      <div className="dc-sent">
        {t('packet.sent', '网关发送：')}
        <FrameText frame={frame.toUpperCase()} crc={crc} testId="packet-sent" />
      </div>
      {encoding === 'ASCII' ? (
        <div className="dc-muted">
          {t('packet.asciiView', 'ASCII：')}
          <span className="dc-mono" data-testid="packet-ascii">
            {ascii}
          </span>
        </div>
      ) : null}
      {read ? (
        <Alert
          className="dc-read"
          type="info"
          showIcon
          data-testid="packet-modbus"
          message={t(
            'packet.modbusRead',
            'Modbus 读请求：从站 {{address}}，功能码 {{fn}}，起始地址 {{start}}，数量 {{quantity}}。应答 {{answer}} 字节（{{data}} 个数据字节）。',
            {
              address: read.address,
              fn: String(read.fn).padStart(2, '0'),
              start: read.start,
              quantity: read.quantity,
              answer: read.answerLength,
              data: read.dataLength,
            },
          )}
        />
      ) : null}
      {appendCrc && frameEndsInCrc(frame) ? (
        <Alert
          type="warning"
          showIcon
          message={t('packet.crcTwice', '这段报文末尾已经是它自己的 CRC：再追加 CRC 会发送两次。')}
        />
      ) : null}
    </div>
  );
}

/**
 * /devicecommunication/DataPackageConfig/:dataPkgId ("new" for a new one): a packet's name,
 * its frame in hex (checked by the seed's rule as typed), the CRC appended, value type,
 * encoding and sampling frequency.
 */
export default function DataPackageConfigPage() {
  const { t, message: catalogue, serialValueType, sampling } = useLabels();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const params = useParams();
  const isNew = params.dataPkgId === 'new';
  const id = isNew ? 0 : Number(params.dataPkgId);
  const packet = usePacket(id);
  const canParse = useSession().user?.menuCode.includes('cd_parsing') ?? false;
  const [form] = Form.useForm<PacketInput>();
  const [saving, setSaving] = useState(false);
  const frame = Form.useWatch('frame', form) ?? '';
  const appendCrc = Form.useWatch('appendCrc', form) ?? true;
  const encoding = Form.useWatch('encoding', form) ?? 'HEX';

  useEffect(() => {
    if (packet.data) form.setFieldsValue(packet.data);
  }, [packet.data, form]);

  if (!isNew && (!Number.isInteger(id) || id <= 0))
    return <Result status="404" title={t('common.badLink', '链接无效')} />;
  if (!isNew && packet.isLoading)
    return (
      <Card variant="borderless">
        <Skeleton active />
      </Card>
    );
  if (!isNew && !packet.data) {
    return (
      <Result status="404" title={t('packet.notFound', '数据包不存在')} data-testid="packet-not-found" />
    );
  }

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const input = { ...values, name: values.name.trim() };
      const envelope = isNew ? await dcApi.add(input) : await dcApi.update(id, input);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: dcKeys.all });
      navigate(dcPaths.packets);
    } catch (error) {
      // the http client showed it; the field it names shows it too
      const field = (error as ApiError).data as { field?: string } | null;
      if (error instanceof ApiError && field?.field && field.field in DEFAULTS) {
        form.setFields([{ name: field.field as keyof PacketInput, errors: [error.message] }]);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card
      variant="borderless"
      title={
        isNew
          ? t('packet.newTitle', '新增数据包')
          : t('packet.editTitle', '编辑数据包：{{name}}', { name: packet.data?.name })
      }
      data-testid="packet-page"
      extra={
        !isNew && canParse ? (
          <Button
            icon={<FunctionOutlined />}
            onClick={() => navigate(dcPaths.parser(id))}
            data-testid="packet-to-parser"
          >
            {t('packets.configureParser', '配置解析')}
          </Button>
        ) : null
      }
    >
      <Form<PacketInput>
        form={form}
        layout="vertical"
        initialValues={DEFAULTS}
        className="dc-form"
        data-testid="packet-form"
      >
        <Form.Item
          name="name"
          label={t('packet.name', '名称')}
          rules={nameRules({
            required: t('rules.nameRequired', '请输入名称'),
            tooLong: t('rules.nameTooLong', '名称长度不能超过 25 个字符'),
          })}
        >
          <Input count={NAME_COUNT} data-testid="packet-name" />
        </Form.Item>
        <Form.Item
          name="frame"
          label={t('packet.frame', '报文（HEX）')}
          extra={t('packet.frameHint', '两位十六进制数字一组，以单个空格分隔，例如 01 03 00 00 00 02')}
          rules={[
            {
              required: true,
              validator: async (_rule, value: unknown) => {
                const text = typeof value === 'string' ? value : '';
                if (text === '') throw new Error(t('packet.frameRequired', '请输入报文'));
                if (checkHexPacket(text)) throw new Error(catalogue('hexPacketInvalid'));
                const bytes = parseHex(text)!.length + (form.getFieldValue('appendCrc') ? 2 : 0);
                if (bytes > MAX_PACKET_BYTES)
                  throw new Error(catalogue('packetTooLong', { max: MAX_PACKET_BYTES }));
              },
            },
          ]}
        >
          <Input.TextArea
            autoSize={{ minRows: 1, maxRows: 6 }}
            className="dc-mono"
            spellCheck={false}
            data-testid="packet-frame"
          />
        </Form.Item>
        <Form.Item
          name="appendCrc"
          label={t('packet.appendCrc', '追加 CRC-16/Modbus 校验')}
          valuePropName="checked"
        >
          <Switch
            data-testid="packet-crc-switch"
            onChange={() => void form.validateFields(['frame']).catch(() => {})}
          />
        </Form.Item>
        <FrameFacts frame={frame} appendCrc={appendCrc} encoding={encoding} />
        <Form.Item name="valueType" label={t('packet.valueType', '数据类型')}>
          <Radio.Group
            optionType="button"
            options={SERIAL_VALUE_TYPES.map((v) => ({ value: v, label: serialValueType(v) }))}
          />
        </Form.Item>
        <Form.Item
          name="encoding"
          label={t('packet.encoding', '编码')}
          extra={t('packet.encodingHint', '字符串值的读法：ASCII 读作文本，HEX 读作十六进制字符串。')}
        >
          <Radio.Group optionType="button" options={ENCODINGS.map((e) => ({ value: e, label: e }))} />
        </Form.Item>
        <Form.Item name="samplingId" label={t('packet.sampling', '采集频率')}>
          <Select
            style={{ maxWidth: 240 }}
            options={SAMPLING_IDS.map((s) => ({ value: s, label: sampling(s) }))}
            data-testid="packet-sampling"
          />
        </Form.Item>
        <div className="dc-actions">
          <Button type="primary" loading={saving} onClick={save} data-testid="packet-save">
            {t('common.save', '保存')}
          </Button>
          <Button onClick={() => navigate(dcPaths.packets)}>{t('common.back', '返回')}</Button>
        </div>
        <Typography.Paragraph className="dc-muted" style={{ marginTop: 16 }}>
          {t(
            'packet.about',
            '网关按采集频率在串口上发送这段报文，并把设备的应答原样上报给平台，由“数据解析”中的解析配置解出数值。',
          )}
        </Typography.Paragraph>
      </Form>
    </Card>
  );
}
