import { ThunderboltOutlined } from '@ant-design/icons';
import { type DecodedFrame, type FrameValueResult, MODBUS_EXCEPTIONS } from '@platform/domain';
import { Alert, Button, Input, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { colorOf } from './draft';
import { useLabels } from './labels';
import { ResultText } from './ResultText';

interface Props {
  text: string;
  onText: (text: string) => void;
  /** null while nothing is pasted */
  decoded: DecodedFrame | null;
  names: string[];
  /** "item · field" of each value */
  targets: string[];
  active: number | null;
  onActive: (index: number | null) => void;
  onFill: (() => void) | null;
}

/** Where a byte of the frame belongs: the Modbus header, the data, or the CRC. */
function roleOf(decoded: DecodedFrame, i: number): 'head' | 'data' | 'crc' | 'rest' {
  const length = decoded.bytes?.length ?? 0;
  if (decoded.layout.crc && i >= length - 2) return 'crc';
  if (i < decoded.dataStart) return 'head';
  return i < decoded.dataEnd ? 'data' : 'rest';
}

/**
 * The live preview: a pasted answer frame decoded with the values as they are being edited,
 * each value's bytes marked in its colour in the frame, and each value's result or error.
 */
export function FramePreview({ text, onText, decoded, names, targets, active, onActive, onFill }: Props) {
  const { t, message } = useLabels();
  const bytes = decoded?.bytes ?? null;
  const results = decoded?.values ?? [];

  const status = () => {
    if (!decoded) {
      return (
        <Alert
          type="info"
          showIcon
          message={t('preview.paste', '粘贴设备的应答报文（HEX），即可看到每个值的解析结果。')}
        />
      );
    }
    const error = decoded.frameError;
    if (error) {
      const meaning =
        error.problem === 'exception'
          ? ` ${t(`preview.exceptions.${error.params.code}`, MODBUS_EXCEPTIONS[Number(error.params.code)] ?? '')}`
          : '';
      return (
        <Alert
          type={error.problem === 'badHex' ? 'error' : 'warning'}
          showIcon
          message={`${message(error.key, error.params)}${meaning}`}
          description={
            error.problem === 'badHex'
              ? undefined
              : t('preview.notStored', '平台收到这样的报文时会计数并记录日志，不会存储。')
          }
          data-testid="preview-frame-error"
        />
      );
    }
    return (
      <Alert
        type="success"
        showIcon
        message={t('preview.frameOk', '报文正确：{{length}} 字节{{crc}}', {
          length: bytes?.length ?? 0,
          crc: decoded.layout.crc ? t('preview.crcOk', '，CRC 校验通过') : '',
        })}
        data-testid="preview-frame-ok"
      />
    );
  };

  const covering = (i: number) =>
    results.filter((r) => r.length > 0 && i >= r.start && i < r.start + r.length).map((r) => r.index);

  const columns: ColumnsType<FrameValueResult> = [
    {
      title: t('parser.name', '名称'),
      dataIndex: 'index',
      render: (index: number) => (
        <span className="dc-result-name">
          <span className="dc-dot" style={{ background: colorOf(index) }} />
          {names[index] || '?'}
        </span>
      ),
    },
    {
      title: t('preview.bytes', '字节'),
      key: 'bytes',
      width: 80,
      render: (_, r) => (r.length > 1 ? `${r.start}–${r.start + r.length - 1}` : String(r.start)),
    },
    {
      title: t('preview.raw', '原始值'),
      key: 'raw',
      responsive: ['md'],
      render: (_, r) => (r.ok ? <span className="dc-mono">{String(r.raw)}</span> : null),
    },
    {
      title: t('preview.value', '结果'),
      key: 'value',
      render: (_, r) => (
        <span data-testid={`preview-value-${r.index}`}>
          <ResultText result={r} />
        </span>
      ),
    },
    {
      title: t('preview.target', '存入'),
      key: 'target',
      responsive: ['md'],
      render: (_, r) => targets[r.index] || '—',
    },
  ];

  return (
    <div className="dc-preview" data-testid="preview">
      <div className="dc-preview-head">
        <span className="dc-preview-title">{t('preview.title', '实时预览')}</span>
        {onFill ? (
          <Button size="small" icon={<ThunderboltOutlined />} onClick={onFill} data-testid="preview-fill">
            {t('preview.fill', '按数据包生成应答')}
          </Button>
        ) : null}
      </div>
      <Input.TextArea
        value={text}
        onChange={(e) => onText(e.target.value)}
        autoSize={{ minRows: 2, maxRows: 6 }}
        className="dc-mono"
        spellCheck={false}
        placeholder="01 03 04 41 20 00 00 EF C5"
        data-testid="preview-frame"
      />
      <div className="dc-preview-status">{status()}</div>
      {bytes && bytes.length > 0 ? (
        <ul
          className="dc-bytes"
          aria-label={t('preview.bytesLabel', '应答的字节')}
          data-testid="preview-bytes"
          onMouseLeave={() => onActive(null)}
        >
          {Array.from(bytes, (byte, i) => {
            const on = covering(i);
            const role = decoded ? roleOf(decoded, i) : 'data';
            const lit = active != null && on.includes(active);
            return (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: a byte's position is its identity
                key={i}
                className={`dc-byte dc-byte-${role}${lit ? ' dc-byte-lit' : ''}`}
                style={
                  lit ? { background: `${colorOf(active!)}22`, borderColor: colorOf(active!) } : undefined
                }
                onMouseEnter={() => onActive(on[0] ?? null)}
                data-testid={`preview-byte-${i}`}
                data-values={on.join(',')}
              >
                <span className="dc-mono dc-byte-hex">
                  {byte.toString(16).toUpperCase().padStart(2, '0')}
                </span>
                <span className="dc-byte-index">{i}</span>
                <span className="dc-byte-bars">
                  {on.slice(0, 4).map((index) => (
                    <span key={index} style={{ background: colorOf(index) }} />
                  ))}
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
      {decoded && bytes ? (
        <div className="dc-legend dc-muted">
          <span className="dc-legend-head">{t('preview.legendHead', '地址、功能码、字节数')}</span>
          <span className="dc-legend-data">{t('preview.legendData', '数据')}</span>
          {decoded.layout.crc ? <span className="dc-legend-crc">CRC</span> : null}
        </div>
      ) : null}
      <Table<FrameValueResult>
        size="small"
        rowKey="index"
        columns={columns}
        dataSource={results}
        pagination={false}
        onRow={(r) => ({ onMouseEnter: () => onActive(r.index) })}
        locale={{ emptyText: t('preview.noValues', '添加值后，这里显示每个值的解析结果') }}
        data-testid="preview-results"
      />
    </div>
  );
}
