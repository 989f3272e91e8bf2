/** The words of the enumerations of seed point 3, as this feature shows them. */
import {
  type ErrorKey,
  messageFor,
  type NumberFormat,
  type ParserValueType,
  SAMPLING_MINUTES,
  type SamplingId,
  type SerialValueType,
} from '@platform/domain';
import { useTranslation } from 'react-i18next';

export function useLabels() {
  const { t, i18n } = useTranslation('devicecommunication');
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  return {
    t,
    lang,
    /** a catalogue message in the page's language */
    message: (key: ErrorKey, params?: Record<string, string | number>) => messageFor(key, lang, params),
    serialValueType: (v: SerialValueType) =>
      ({
        byte: t('enums.serialValueType.byte', '字节'),
        bit: t('enums.serialValueType.bit', '位'),
        string: t('enums.serialValueType.string', '字符串'),
      })[v] ?? v,
    sampling: (id: SamplingId) => t('enums.sampling', '{{minutes}} 分钟', { minutes: SAMPLING_MINUTES[id] }),
    valueType: (v: ParserValueType) =>
      ({
        integer: t('enums.valueType.integer', '整数'),
        decimal: t('enums.valueType.decimal', '小数'),
        string: t('enums.valueType.string', '字符串'),
        timestamp: t('enums.valueType.timestamp', '时间戳'),
      })[v] ?? v,
    format: (f: NumberFormat) =>
      ({
        uint: t('enums.format.uint', '无符号整数'),
        int: t('enums.format.int', '有符号整数'),
        float: t('enums.format.float', '单精度浮点'),
        double: t('enums.format.double', '双精度浮点'),
        bit: t('enums.format.bit', '位'),
        hex: t('enums.format.hex', 'HEX 字符串'),
      })[f] ?? f,
  };
}
