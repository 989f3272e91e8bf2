import { eq } from 'drizzle-orm';
import type { App } from '../../platform/context';
import { parseCfg } from './service';
import { companies } from './tables';

/** What a printed document (certificate, delivery note) heads its first page with. */
export interface Letterhead {
  name: string;
  /** PNG or JPEG bytes of the company's logo, when it has one */
  logo: Buffer | null;
}

/** The company's name and logo; only a logo of the company's own folder (logo.ts writes logos/<companyId>/). */
export async function companyLetterhead(app: App, companyId: number): Promise<Letterhead> {
  const [company] = await app.db
    .select({ name: companies.name, displayName: companies.displayName, cfg: companies.cfg })
    .from(companies)
    .where(eq(companies.id, companyId));
  const url = parseCfg(company?.cfg).logoUri;
  const key = typeof url === 'string' ? app.storage.keyOfPublicUrl(url) : null;
  const logo = key?.startsWith(`logos/${companyId}/`) ? await app.storage.get('public', key) : null;
  return { name: company?.displayName || company?.name || '', logo };
}
