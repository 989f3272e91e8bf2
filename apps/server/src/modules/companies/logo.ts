/**
 * Company logos: the original and its 150 px thumbnail in the public bucket under
 * logos/<companyId>/. cfg (JSON text, spec point 3) keeps logoThumbnailUri, which the web
 * shows, and logoUri, so the files can be removed when the logo is replaced or cleared.
 * Other cfg keys are left as they are.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import type { CheckedImage } from '../../platform/images';
import type { Storage } from '../../platform/storage';
import { parseCfg } from './service';
import { companies } from './tables';

const LOGO_KEYS = ['logoUri', 'logoThumbnailUri'] as const;

export interface CompanyLogo {
  logoUrl: string;
  logoThumbnailUri: string;
}

/** Rewrites cfg under a row lock; returns the cfg as it was before. */
async function changeCfg(
  db: Db,
  companyId: number,
  change: (cfg: Record<string, unknown>) => void,
): Promise<Record<string, unknown>> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ cfg: companies.cfg })
      .from(companies)
      .where(eq(companies.id, companyId))
      .for('update');
    const before = parseCfg(row?.cfg);
    const after = { ...before };
    change(after);
    await tx
      .update(companies)
      .set({ cfg: JSON.stringify(after) })
      .where(eq(companies.id, companyId));
    return before;
  });
}

/** Removes the logo files a cfg points at, but only files of this company's logo folder. */
async function removeLogoFiles(storage: Storage, companyId: number, cfg: Record<string, unknown>) {
  for (const name of LOGO_KEYS) {
    const url = cfg[name];
    if (typeof url !== 'string') continue;
    const key = storage.keyOfPublicUrl(url);
    if (!key?.startsWith(`logos/${companyId}/`)) continue;
    // a file already gone must not fail the request: the cfg is what the web reads
    await storage.remove('public', key).catch(() => undefined);
  }
}

export async function setCompanyLogo(
  db: Db,
  storage: Storage,
  companyId: number,
  image: CheckedImage,
): Promise<CompanyLogo> {
  const ext = image.kind === 'png' ? 'png' : 'jpg';
  const contentType = image.kind === 'png' ? 'image/png' : 'image/jpeg';
  // a new name per upload, so browsers and CDNs never show a cached old logo
  const stem = `logos/${companyId}/${Date.now()}-${randomBytes(6).toString('hex')}`;
  const logoUrl = await storage.put('public', `${stem}.${ext}`, image.bytes, contentType);
  const logoThumbnailUri = await storage.put('public', `${stem}-thumb.${ext}`, image.thumbnail, contentType);
  let before: Record<string, unknown>;
  try {
    before = await changeCfg(db, companyId, (cfg) => {
      cfg.logoUri = logoUrl;
      cfg.logoThumbnailUri = logoThumbnailUri;
    });
  } catch (error) {
    await removeLogoFiles(storage, companyId, { logoUri: logoUrl, logoThumbnailUri });
    throw error;
  }
  await removeLogoFiles(storage, companyId, before);
  return { logoUrl, logoThumbnailUri };
}

export async function removeCompanyLogo(db: Db, storage: Storage, companyId: number): Promise<void> {
  const before = await changeCfg(db, companyId, (cfg) => {
    for (const name of LOGO_KEYS) delete cfg[name];
  });
  await removeLogoFiles(storage, companyId, before);
}
