/** Form rules of the gas pages that the server applies too (it answers the same refusals by field). */
import type { FormRule } from 'antd';

/** A number greater than 0 (an empty field is the `required` rule's business). */
export function positiveRule(message: string): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      if (value === null || value === undefined || value === '') return;
      if (!(typeof value === 'number' && Number.isFinite(value) && value > 0)) throw new Error(message);
    },
  };
}

/** A number of at least 0. */
export function notNegativeRule(message: string): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      if (value === null || value === undefined || value === '') return;
      if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0)) throw new Error(message);
    },
  };
}

/** Absolute zero is -273.15 °C: a temperature is above it. */
export function temperatureRule(message: string): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      if (value === null || value === undefined || value === '') return;
      if (!(typeof value === 'number' && value > -273.15)) throw new Error(message);
    },
  };
}
