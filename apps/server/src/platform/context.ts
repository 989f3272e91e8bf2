import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Config } from '../config';
import type { Db } from './db';
import type { FileLinks } from './file-links';
import type { SmsProvider } from './sms';
import type { Storage } from './storage';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    sms: SmsProvider;
    storage: Storage;
    fileLinks: FileLinks;
  }
}

/** The app as module route files see it: TypeBox schemas give typed params, query and body. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
