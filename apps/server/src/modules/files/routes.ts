/**
 * Files by URL. Public files (avatars, company logos, template images) from the storage's
 * public bucket at /general/files/public/<key>, to anyone. Record pictures and files from the
 * private bucket at /general/files/records/<company>/<item>/<name>, and device pictures at
 * /general/files/devices/<company>/<gateway>/<name>, only with a valid signed link (platform/file-links.ts): the server issues those links only to callers who may read
 * the record, in place of the reference the record keeps. Without a link, with another key's,
 * an altered or an expired one, no byte is sent.
 *
 * Both routes guard the key: it may not leave its bucket (or, for public files, reach into the
 * record area, where files lived before they moved to the private bucket). The content type
 * comes from the bytes, never from the name, with nosniff and a sandboxing policy so an
 * uploaded file can never run as a page of this origin.
 */

import type { FastifyReply } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError } from '../../platform/envelope';
import { FILE_LINK_WINDOW_SECONDS } from '../../platform/file-links';
import { EmptyEnvelope } from '../../platform/schemas';
import { DEVICE_FILES_AREA, RECORD_FILES_AREA, safeStorageKey } from '../../platform/storage';

const FileBytes = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'the file' });
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg']);

/** The bytes typed by their content; `downloadUnlessImage` makes anything but a picture a download. */
async function sendFile(
  reply: FastifyReply,
  bytes: Buffer,
  opts: { cacheControl: string; downloadUnlessImage: boolean },
) {
  const type = (await fileTypeFromBuffer(bytes))?.mime ?? 'application/octet-stream';
  reply
    .header('content-type', type)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', opts.cacheControl);
  if (opts.downloadUnlessImage && !IMAGE_TYPES.has(type)) reply.header('content-disposition', 'attachment');
  return reply.send(bytes);
}

export default async function filesRoutes(app: App): Promise<void> {
  app.get(
    '/files/public/*',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['files'],
        summary: 'A public file (avatar, logo, template image); its type is read from its bytes',
        params: Type.Object({ '*': Type.String() }),
        response: { 200: FileBytes, 404: EmptyEnvelope },
      },
    },
    async (request, reply) => {
      const key = safeStorageKey(request.params['*']);
      const bytes =
        key == null || key.startsWith(RECORD_FILES_AREA) ? null : await app.storage.get('public', key);
      if (!bytes) throw new AppError('notFound');
      return sendFile(reply, bytes, { cacheControl: 'public, max-age=86400', downloadUnlessImage: false });
    },
  );

  const signedArea = (area: string, summary: string) =>
    app.get(
      `/files/${area}*`,
      {
        config: { permission: 'public' },
        schema: {
          tags: ['files'],
          summary,
          params: Type.Object({ '*': Type.String() }),
          querystring: Type.Object({
            exp: Type.Optional(Type.String({ maxLength: 20, description: 'expiry, unix seconds' })),
            sig: Type.Optional(Type.String({ maxLength: 100, description: 'signature of key and expiry' })),
          }),
          response: { 200: FileBytes, 403: EmptyEnvelope, 404: EmptyEnvelope },
        },
      },
      async (request, reply) => {
        const key = safeStorageKey(`${area}${request.params['*']}`);
        // an unsigned or forged request learns nothing, not even whether the file exists
        const check =
          key == null ? 'invalid' : app.fileLinks.check(key, request.query.exp, request.query.sig);
        if (check === 'invalid') throw new AppError('notFound');
        if (check === 'expired') throw new AppError('fileLinkExpired');
        const bytes = await app.storage.get('private', key!);
        if (!bytes) throw new AppError('notFound');
        const left = Math.max(0, Number(request.query.exp) - Math.floor(Date.now() / 1000));
        return sendFile(reply, bytes, {
          cacheControl: `private, max-age=${Math.min(left, 2 * FILE_LINK_WINDOW_SECONDS)}`,
          downloadUnlessImage: true,
        });
      },
    );
  signedArea(
    RECORD_FILES_AREA,
    'A record picture or file through the signed link the record list, upload, live stream or document gave (valid 10 to 20 minutes)',
  );
  signedArea(
    DEVICE_FILES_AREA,
    "A device's picture through the signed link the device list or detail gave (valid 10 to 20 minutes)",
  );
}
