import { Type } from 'typebox';
import { caller } from '../../platform/auth';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { uploadedImage } from '../../platform/images';
import { EmptyEnvelope, Envelope } from '../../platform/schemas';
import { removeAvatar, setAvatar } from './avatar';

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
