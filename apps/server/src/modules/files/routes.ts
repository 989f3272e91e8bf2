/**
 * Public files (avatars, company logos) from the storage's public bucket at
 * /general/files/public/<key>. Anyone may read them, so the route guards the other way: the
 * key may not leave the bucket, and the content type comes from the bytes, never from the
 * name, with nosniff and a sandboxing policy so an uploaded file can never run as a page of
 * this origin.
 */
import { fileTypeFromBuffer } from 'file-type';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError } from '../../platform/envelope';
import { EmptyEnvelope } from '../../platform/schemas';

const KEY_MAX_LENGTH = 300;
/** A path segment that is not '.', '..' or hidden: it may not start with a dot. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** The key as stored, or null when it could name anything outside the bucket. */
export function safePublicKey(key: string | undefined): string | null {
  if (!key || key.length > KEY_MAX_LENGTH) return null;
  return key.split('/').every((segment) => SEGMENT.test(segment)) ? key : null;
}

export default async function filesRoutes(app: App): Promise<void> {
  app.get(
    '/files/public/*',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['files'],
        summary: 'A public file (avatar, logo); its type is read from its bytes',
        params: Type.Object({ '*': Type.String() }),
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'the file' }),
          404: EmptyEnvelope,
        },
      },
    },
    async (request, reply) => {
      const key = safePublicKey(request.params['*']);
      const bytes = key == null ? null : await app.storage.get('public', key);
      if (!bytes) throw new AppError('notFound');
      const type = await fileTypeFromBuffer(bytes);
      return reply
        .header('content-type', type?.mime ?? 'application/octet-stream')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'public, max-age=86400')
        .send(bytes);
    },
  );
}
