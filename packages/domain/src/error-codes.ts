/**
 * Envelope codes (seed point 8), apart from the message catalogue in errors.ts (which re-exports
 * them) so a page that needs only the codes, the login page, does not load every message.
 */
export const ERROR_CODES = {
  OK: 0,
  VALIDATION: 40000,
  LOGIN_FAILED: 40101,
  FORBIDDEN: 40300,
  NOT_FOUND: 40400,
  CONFLICT: 40900,
  TOO_LARGE: 41300,
  RATE_LIMITED: 42900,
  INTERNAL: 50000,
  BUSINESS: 50001,
  TOKEN_EXPIRED: 70004,
  TOKEN_INVALID: 70006,
} as const;
