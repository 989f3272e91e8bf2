/**
 * antd Form rules built on the domain's validation (packages/domain/src/validation.ts), so a
 * form refuses exactly what the server refuses. Message text comes from the calling feature's
 * locale files (the spec's messages word for word in en).
 */
import {
  checkName,
  checkPassword,
  checkPhone,
  NAME_MAX_LENGTH,
  nameLength,
} from '@platform/domain/validation';
import type { FormRule } from 'antd';

export interface NameMessages {
  required: string;
  tooLong: string;
}

/** Spec point 5: required ('Please enter a name'), at most 25 characters. Checked trimmed, as the server does. */
export function nameRules(messages: NameMessages): FormRule[] {
  return [
    {
      required: true,
      validator: async (_rule, value: unknown) => {
        const problem = checkName(typeof value === 'string' ? value.trim() : null);
        if (problem === 'nameRequired') throw new Error(messages.required);
        if (problem === 'nameTooLong') throw new Error(messages.tooLong);
      },
    },
  ];
}

export function phoneRules(message: string): FormRule[] {
  return [
    {
      required: true,
      validator: async (_rule, value: unknown) => {
        if (checkPhone(typeof value === 'string' ? value.trim() : null)) throw new Error(message);
      },
    },
  ];
}

export function passwordRules(message: string, required = true): FormRule[] {
  return [
    {
      required,
      validator: async (_rule, value: unknown) => {
        if (!required && (value == null || value === '')) return;
        if (checkPassword(typeof value === 'string' ? value : null)) throw new Error(message);
      },
    },
  ];
}

/** Input `count` for names: characters as a person counts them, red past 25. */
export const NAME_COUNT = { show: true, max: NAME_MAX_LENGTH, strategy: nameLength };
