/** Request and response pieces shared by the auth routes (they also feed the OpenAPI docs). */
import { Type } from 'typebox';

export const TokenData = Type.Object({
  token: Type.String(),
  expiresIn: Type.Integer({ description: 'seconds' }),
});

export const Password = Type.String({ minLength: 1, maxLength: 128 });

/** Loose on purpose: a malformed code is refused like a wrong one ('smsCodeInvalid' on smsCode). */
export const SmsCode = Type.String({
  minLength: 1,
  maxLength: 16,
  description: 'the 6-digit code from getSmsCode',
});
