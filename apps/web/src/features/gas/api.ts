/**
 * Calls of the gas blending pages (/setgas): the company's components and molar masses
 * (gm_gas_info), its parent gases with their purity tables (gm_pure_gas), its mixture recipes
 * (gm_product) and the two calculations on them (gm_component_cal). Amounts travel as amount
 * fractions (mol/mol); impurities of a parent gas as µmol/mol.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import { downloadFile } from '../../app/http/download';
import type { Page, Paging } from '../../shared/paging';

export interface GasComponent {
  id: number;
  formula: string;
  name: string;
  molarMass: number;
  builtIn: boolean;
  /** how many pure gases and products hold it */
  usedBy: number;
}

export interface Impurity {
  component: string;
  umolPerMol: number;
  /** standard uncertainty of the purity analysis, µmol/mol */
  uUmolPerMol?: number;
}

export interface PureGas {
  id: number;
  name: string;
  main: string;
  /** amount fraction of the main component, e.g. 0.99995 */
  purity: number;
  impurities: Impurity[];
  supplier: string;
  lot: string;
  cylinder: string;
  updatedAt: string;
}

export interface ProductComponent {
  component: string;
  /** amount fraction, mol/mol */
  fraction: number;
}

/** What the fill calculation needs: the recipe and the cylinder's filling conditions. */
export interface Mixture {
  balance: string;
  /** every component but the balance gas, which is the rest */
  components: ProductComponent[];
  volumeL: number;
  /** absolute */
  pressureMPa: number;
  temperatureC: number;
  /** compressibility factor of the mixture at that pressure and temperature */
  z: number;
}

export interface Product extends Mixture {
  id: number;
  name: string;
  code: string;
  notes: string;
  updatedAt: string;
}

export interface FillResult {
  totalMol: number;
  /** g/mol */
  molarMass: number;
  /** the balance gas last */
  components: Array<{ component: string; fraction: number; mol: number; massG: number }>;
}

export interface WeighedParent {
  pureGasId: number;
  massG: number;
  /** standard uncertainty of the weighing, g */
  uMassG?: number;
}

export interface CertifyResult {
  molarMass: number;
  /** the largest first; `standard` and `expanded` (k = 2) are amount fractions too */
  components: Array<{ component: string; fraction: number; standard: number; expanded: number }>;
}

export type CylinderStatus = 'weighed' | 'passed' | 'failed' | 'certified';

export interface CylinderValue {
  component: string;
  fraction: number;
  standard: number;
  /** k = 2 */
  expanded: number;
}

/** One analysis against its gravimetric value; `passed` when |difference| ≤ limit. */
export interface Analysis {
  component: string;
  gravimetric: number;
  gravimetricU: number;
  analysed: number;
  analysedU: number;
  difference: number;
  /** √(U_grav² + U_anal²) */
  limit: number;
  ratio: number;
  passed: boolean;
  referenceMaterialId: number | null;
}

export interface Certificate {
  number: string;
  certifiedOn: string;
  expiresOn: string;
  pressureMPa: number;
  tempMinC: number;
  tempMaxC: number;
  laboratory: string;
  referenceIds: number[];
  issuedAt: string;
  /** the revoked certificate this reissue replaces */
  replaces?: string;
}

/** A revoked certificate, as the cylinder keeps it. */
export interface RevokedCertificate {
  number: string;
  certifiedOn: string;
  revokedAt: string;
  reason: string;
}

export interface Cylinder {
  id: number;
  serialNumber: string;
  productId: number | null;
  productName: string;
  balance: string;
  parents: Array<{ pureGasId: number; name: string; massG: number; uMassG: number }>;
  values: CylinderValue[];
  analyses: Analysis[];
  status: CylinderStatus;
  analysedAt: string | null;
  certificate: Certificate | null;
  revokedCertificates: RevokedCertificate[];
  createdAt: string;
  updatedAt: string;
}

export interface ReferenceMaterial {
  id: number;
  name: string;
  certificateNo: string;
  issuer: string;
  balance: string;
  /** amount fractions and their expanded uncertainties (k = 2) */
  components: Array<{ component: string; fraction: number; expanded: number }>;
  expiresOn: string;
  notes: string;
  updatedAt: string;
}

export type CertificateBody = Omit<Certificate, 'number' | 'expiresOn' | 'issuedAt'> & {
  id: number;
  validMonths: number;
};

export const gasKeys = {
  all: ['gas'] as const,
  components: ['gas', 'components'] as const,
  pure: (query: Paging & { keyword: string }) => ['gas', 'pure', query] as const,
  pureChoices: ['gas', 'pure', 'choices'] as const,
  products: (query: Paging & { keyword: string }) => ['gas', 'products', query] as const,
  product: (id: number) => ['gas', 'product', id] as const,
  cylinders: (query: Paging & { keyword: string; status?: CylinderStatus }) =>
    ['gas', 'cylinders', query] as const,
  references: (query: Paging & { keyword: string }) => ['gas', 'references', query] as const,
  referenceChoices: ['gas', 'references', 'choices'] as const,
};

/** The query without an empty keyword (an empty keyword is no filter). */
function listQuery(query: Paging & { keyword: string }): Record<string, unknown> {
  const keyword = query.keyword.trim();
  return {
    pageNum: query.pageNum,
    pageSize: query.pageSize,
    sortField: query.sortField,
    sortOrder: query.sortOrder,
    ...(keyword ? { keyword } : {}),
  };
}

export function useComponents() {
  return useQuery({
    queryKey: gasKeys.components,
    queryFn: () => get<GasComponent[]>('/gas/component/list'),
    staleTime: 30_000,
  });
}

export function usePureGases(query: Paging & { keyword: string }) {
  return useQuery({
    queryKey: gasKeys.pure(query),
    queryFn: () => get<Page<PureGas>>('/gas/pure/list', listQuery(query)),
    placeholderData: keepPreviousData,
  });
}

/** Every parent gas a weighing may name (the API's largest page). */
export function usePureGasChoices() {
  return useQuery({
    queryKey: gasKeys.pureChoices,
    queryFn: () => get<Page<PureGas>>('/gas/pure/list', { pageNum: 1, pageSize: 100 }),
    staleTime: 30_000,
  });
}

export function useProducts(query: Paging & { keyword: string }) {
  return useQuery({
    queryKey: gasKeys.products(query),
    queryFn: () => get<Page<Product>>('/gas/product/list', listQuery(query)),
    placeholderData: keepPreviousData,
  });
}

export function useProduct(id: number) {
  return useQuery({
    queryKey: gasKeys.product(id),
    queryFn: () => get<Product>('/gas/product/get', { id }),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
}

export function useCylinders(query: Paging & { keyword: string; status?: CylinderStatus }) {
  return useQuery({
    queryKey: gasKeys.cylinders(query),
    queryFn: () =>
      get<Page<Cylinder>>('/gas/cylinder/list', {
        ...listQuery(query),
        ...(query.status ? { status: query.status } : {}),
      }),
    placeholderData: keepPreviousData,
  });
}

export function useReferences(query: Paging & { keyword: string }) {
  return useQuery({
    queryKey: gasKeys.references(query),
    queryFn: () => get<Page<ReferenceMaterial>>('/gas/reference/list', listQuery(query)),
    placeholderData: keepPreviousData,
  });
}

/** Every reference material an analysis or certificate may name (the API's largest page). */
export function useReferenceChoices(enabled = true) {
  return useQuery({
    queryKey: gasKeys.referenceChoices,
    queryFn: () => get<Page<ReferenceMaterial>>('/gas/reference/list', { pageNum: 1, pageSize: 100 }),
    staleTime: 30_000,
    enabled,
  });
}

const post = <T>(url: string, data: unknown) => request<T>({ method: 'POST', url, data });

export const gasApi = {
  saveComponent: (body: { id?: number; formula: string; name: string; molarMass: number }) =>
    post<{ id: number }>('/gas/component/save', body),
  deleteComponent: (id: number) => post<null>('/gas/component/delete', { id }),
  savePureGas: (body: {
    id?: number;
    name: string;
    main: string;
    impurities: Impurity[];
    supplier?: string;
    lot?: string;
    cylinder?: string;
  }) => post<{ id: number }>('/gas/pure/save', body),
  deletePureGas: (id: number) => post<null>('/gas/pure/delete', { id }),
  saveProduct: (body: Mixture & { id?: number; name: string; code?: string; notes?: string }) =>
    post<{ id: number }>('/gas/product/save', body),
  deleteProduct: (id: number) => post<null>('/gas/product/delete', { id }),
  fill: (body: Mixture) => post<FillResult>('/gas/calc/fill', body),
  certify: (parents: WeighedParent[]) => post<CertifyResult>('/gas/calc/certify', { parents }),
  saveCylinder: (body: { serialNumber: string; productId?: number; parents: WeighedParent[] }) =>
    post<{ id: number }>('/gas/cylinder/save', body),
  deleteCylinder: (id: number) => post<null>('/gas/cylinder/delete', { id }),
  saveAnalysis: (body: {
    id: number;
    analyses: Array<{ component: string; analysed: number; analysedU: number; referenceMaterialId?: number }>;
  }) => post<{ passed: boolean; results: Analysis[] }>('/gas/cylinder/analysis', body),
  issueCertificate: (body: CertificateBody) => post<Certificate>('/gas/cylinder/certify', body),
  revokeCertificate: (id: number, reason: string) => post<Cylinder>('/gas/cylinder/revoke', { id, reason }),
  downloadCertificate: (cylinder: Pick<Cylinder, 'id' | 'serialNumber'>, lang: 'zh' | 'en') =>
    downloadFile(
      '/gas/cylinder/certificate',
      { id: cylinder.id, lang },
      `${cylinder.serialNumber}-${lang}.pdf`,
    ),
  saveReference: (
    body: Omit<ReferenceMaterial, 'id' | 'updatedAt' | 'issuer' | 'notes'> & {
      id?: number;
      issuer?: string;
      notes?: string;
    },
  ) => post<{ id: number }>('/gas/reference/save', body),
  deleteReference: (id: number) => post<null>('/gas/reference/delete', { id }),
};
