import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { positiveRule, temperatureRule } from '../rules';

/** Defaults of a new recipe: a 10 L cylinder filled to 10 MPa at 20 °C, ideal gas. */
export const CONDITION_DEFAULTS = { volumeL: 10, pressureMPa: 10, temperatureC: 20, z: 1 } as const;

export function useConditionLabels(): Record<string, string> {
  const { t } = useTranslation('gas');
  return {
    volumeL: t('fields.volumeL', '钢瓶容积'),
    pressureMPa: t('fields.pressureMPa', '压力（绝压）'),
    temperatureC: t('fields.temperatureC', '温度'),
    z: t('fields.z', '压缩因子 Z'),
  };
}

/** The cylinder's filling conditions: water volume, final pressure (absolute), temperature, Z. */
export function ConditionFields({ testPrefix }: { testPrefix: string }) {
  const { t } = useTranslation('gas');
  const labels = useConditionLabels();
  const required = (message: string) => ({ required: true, message });
  const positive = positiveRule(t('rules.positive', '必须大于 0'));
  return (
    <div className="gas-form-grid gas-form-grid-4">
      <Form.Item
        name="volumeL"
        label={labels.volumeL}
        rules={[required(t('rules.volumeRequired', '请输入钢瓶容积')), positive]}
      >
        <InputNumber<number>
          style={{ width: '100%' }}
          suffix="L"
          step={1}
          data-testid={`${testPrefix}-volume`}
        />
      </Form.Item>
      <Form.Item
        name="pressureMPa"
        label={labels.pressureMPa}
        rules={[required(t('rules.pressureRequired', '请输入压力')), positive]}
      >
        <InputNumber<number>
          style={{ width: '100%' }}
          suffix="MPa"
          step={0.5}
          data-testid={`${testPrefix}-pressure`}
        />
      </Form.Item>
      <Form.Item
        name="temperatureC"
        label={labels.temperatureC}
        rules={[
          required(t('rules.temperatureRequired', '请输入温度')),
          temperatureRule(t('rules.temperatureRange', '温度须高于 -273.15 °C')),
        ]}
      >
        <InputNumber<number>
          style={{ width: '100%' }}
          suffix="°C"
          step={1}
          data-testid={`${testPrefix}-temperature`}
        />
      </Form.Item>
      <Form.Item
        name="z"
        label={labels.z}
        tooltip={t('fields.zHint', '混合气在该压力和温度下的压缩因子；理想气体为 1')}
        rules={[required(t('rules.zRequired', '请输入压缩因子')), positive]}
      >
        <InputNumber<number> style={{ width: '100%' }} step={0.001} data-testid={`${testPrefix}-z`} />
      </Form.Item>
    </div>
  );
}
