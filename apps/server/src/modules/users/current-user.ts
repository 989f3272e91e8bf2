/** The current user as getUser shows it: account, current company, its service and orders. */
import type { AuthContext } from '../../platform/auth';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { findLiveCompany, listActiveCompanies, type MemberCompany } from '../companies/service';
import { currentOrderInfo, latestPaidEnd, type OrderInfo } from '../orders/service';
import { findUserById } from './service';

export interface CurrentUserView {
  userId: number;
  userName: string;
  phone: string;
  email: string | null;
  headImgUrl: string | null;
  orderInfo: OrderInfo | null;
  menuCode: string[];
  companyId: number | null;
  companies: MemberCompany[];
  termsAccepted: boolean;
  serviceExpiresAt: string | null;
  expiryNoticeDays: number;
}

/** The later of the company's own expiry and the end of its furthest paid order. */
async function serviceExpiry(db: Db, companyId: number): Promise<Date | null> {
  const [company, paidEnd] = await Promise.all([
    findLiveCompany(db, companyId),
    latestPaidEnd(db, companyId),
  ]);
  const ends = [company?.serviceExpiresAt, paidEnd].filter((d): d is Date => d != null);
  return ends.length === 0 ? null : new Date(Math.max(...ends.map((d) => d.getTime())));
}

export async function currentUserView(
  db: Db,
  auth: AuthContext,
  expiryNoticeDays: number,
): Promise<CurrentUserView> {
  const user = await findUserById(db, auth.userId);
  if (!user) throw new AppError('tokenInvalid');
  const companyId = auth.companyId;
  const [companies, orderInfo, expiresAt] = await Promise.all([
    listActiveCompanies(db, user.id),
    companyId == null ? null : currentOrderInfo(db, companyId),
    companyId == null ? null : serviceExpiry(db, companyId),
  ]);
  return {
    userId: user.id,
    userName: user.userName,
    phone: user.phone,
    email: user.email,
    headImgUrl: user.headImgUrl,
    orderInfo,
    menuCode: [...auth.menuCodes].sort(),
    companyId,
    companies,
    termsAccepted: user.termsAcceptedAt != null,
    serviceExpiresAt: expiresAt?.toISOString() ?? null,
    expiryNoticeDays,
  };
}
