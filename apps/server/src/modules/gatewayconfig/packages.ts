/**
 * The company's serial data packages as a configuration needs them: names for the editor, the
 * values their parsing defines for the check, the bytes sent (frame and CRC) for the push.
 *
 * Stand-in until the data packages (Device communication → data packages) are on the platform:
 * null means "no package source", so the check leaves package references alone and the push
 * sends no frames.
 */
import type { Db } from '../../platform/db';

export interface PackageInfo {
  id: number;
  name: string;
  /** hex of the bytes a gateway sends, CRC included where the definition appends one */
  frame: string;
  /** the names of its parsing's values; null when it has no parsing */
  parserValues: string[] | null;
}

export async function companyPackages(_db: Db, _companyId: number): Promise<PackageInfo[] | null> {
  return null;
}
