/**
 * Avatars: public files, the original and its 150 px thumbnail under avatars/<userId>/ in the
 * public bucket, a new random name per upload so no cache ever shows an old face.
 * users.head_img_url holds the thumbnail URL; the original sits beside it without "-thumb",
 * so both files can be removed when the avatar is replaced or cleared.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import type { CheckedImage } from '../../platform/images';
import type { Storage } from '../../platform/storage';
import { users } from './tables';

export interface Avatar {
  /** what users.head_img_url (and so getUser) now holds: the thumbnail */
  headImgUrl: string;
  thumbnailUrl: string;
  originalUrl: string;
}

/** Sets head_img_url under a row lock; returns the value it replaced. */
async function swapHeadImg(db: Db, userId: number, url: string | null): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ headImgUrl: users.headImgUrl })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    await tx.update(users).set({ headImgUrl: url, updatedAt: new Date() }).where(eq(users.id, userId));
    return row?.headImgUrl ?? null;
  });
}

/** Removes the files behind an avatar URL, but only files in this user's own avatar folder. */
async function removeAvatarFiles(storage: Storage, userId: number, url: string | null): Promise<void> {
  const key = url == null ? null : storage.keyOfPublicUrl(url);
  if (!key?.startsWith(`avatars/${userId}/`)) return;
  const original = key.replace(/-thumb(\.[a-z]+)$/, '$1');
  const thumbnail = original.replace(/(\.[a-z]+)$/, '-thumb$1');
  for (const k of new Set([original, thumbnail])) {
    // a file already gone must not fail the request: the user row is what the web reads
    await storage.remove('public', k).catch(() => undefined);
  }
}

export async function setAvatar(
  db: Db,
  storage: Storage,
  userId: number,
  image: CheckedImage,
): Promise<Avatar> {
  const ext = image.kind === 'png' ? 'png' : 'jpg';
  const contentType = image.kind === 'png' ? 'image/png' : 'image/jpeg';
  const stem = `avatars/${userId}/${randomBytes(12).toString('hex')}`;
  const originalUrl = await storage.put('public', `${stem}.${ext}`, image.bytes, contentType);
  const thumbnailUrl = await storage.put('public', `${stem}-thumb.${ext}`, image.thumbnail, contentType);
  let previous: string | null;
  try {
    previous = await swapHeadImg(db, userId, thumbnailUrl);
  } catch (error) {
    await removeAvatarFiles(storage, userId, thumbnailUrl);
    throw error;
  }
  await removeAvatarFiles(storage, userId, previous);
  return { headImgUrl: thumbnailUrl, thumbnailUrl, originalUrl };
}

export async function removeAvatar(db: Db, storage: Storage, userId: number): Promise<void> {
  const previous = await swapHeadImg(db, userId, null);
  await removeAvatarFiles(storage, userId, previous);
}
