import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { caller } from '../../platform/auth';
import type { App } from '../../platform/context';
import { fieldError, ok } from '../../platform/envelope';
import { type CheckedImage, checkAndThumbnail } from '../../platform/images';
import { EmptyEnvelope, Envelope } from '../../platform/schemas';
import { removeAvatar, setAvatar } from './avatar';

/**
 * The multipart `file` part, checked by its bytes. The multipart limit stops reading just past
 * 3 MB, so a larger upload arrives truncated (or as the plugin's too-large error): both answer
 * the spec's size message and nothing is stored.
 */
async function uploadedImage(request: FastifyRequest): Promise<CheckedImage> {
  if (!request.isMultipart()) throw fieldError('file', 'fieldRequired');
  const file = await request.file();
  if (file?.fieldname !== 'file') throw fieldError('file', 'fieldRequired');
  let bytes: Buffer;
  try {
    bytes = await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw fieldError('file', 'imageTooLarge');
    throw error;
  }
  if (file.file.truncated) throw fieldError('file', 'imageTooLarge');
  return checkAndThumbnail('file', bytes);
}

export default async function avatarRoutes(app: App): Promise<void> {
  app.post(
    '/cos/uploadAvatar',
    {
      config: { permission: 'login' },
      schema: {
        tags: ['users'],
        summary: "Upload the caller's avatar (multipart `file`, JPG or PNG by its bytes, at most 3 MB)",
        consumes: ['multipart/form-data'],
        response: {
          200: Envelope(
            Type.Object({
              headImgUrl: Type.String({ description: 'the 150 px thumbnail, as getUser now returns it' }),
              thumbnailUrl: Type.String(),
              originalUrl: Type.String({ description: 'the image as uploaded' }),
            }),
          ),
        },
      },
    },
    async (request) => {
      const { userId } = caller(request);
      const image = await uploadedImage(request);
      return ok(await setAvatar(app.db, app.storage, userId, image), 'operation', request.lang);
    },
  );

  app.post(
    '/cos/removeAvatar',
    {
      config: { permission: 'login' },
      schema: {
        tags: ['users'],
        summary: "Clear the caller's avatar (the web shows the default one)",
        body: Type.Object({}),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await removeAvatar(app.db, app.storage, caller(request).userId);
      return ok(null, 'deleted', request.lang);
    },
  );
}
