/** Shapes of /user/getUser and /company/getCompany (docs/api-foundation.md). */
export interface UserCompany {
  id: number;
  name: string;
  displayName: string | null;
  logoUrl: string | null;
}

export interface CurrentUser {
  userId: number;
  userName: string;
  phone: string;
  email?: string | null;
  headImgUrl: string | null;
  orderInfo: { swProductId: number; subTypeId: number } | null;
  menuCode: string[];
  companyId: number | null;
  companies?: UserCompany[];
  termsAccepted: boolean;
  serviceExpiresAt?: string | null;
  expiryNoticeDays?: number | null;
}

export interface CurrentCompany {
  id: number;
  name: string;
  displayName: string | null;
  /** JSON text holding logoThumbnailUri */
  cfg: string | Record<string, unknown> | null;
  logoUrl?: string | null;
  serviceExpiresAt?: string | null;
  isPlatform?: boolean;
  /** IANA zone every time of the company reads in (absent in a session stored before it existed) */
  timeZone?: string;
}
