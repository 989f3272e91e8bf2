/**
 * Filled cylinders, quality control, certificates and reference materials (docs/business.md,
 * "Gas blending"): a cylinder is saved from the calculation page's weighed parents with its
 * gravimetric composition; quality control enters analysis results and ISO 6142-1's
 * verification passes or fails it; a passed cylinder gets a certificate of analysis, after
 * which its record no longer changes. Every read and write is scoped to the company.
 */
import {
  addCalendarMonths,
  isCalendarDate,
  type Lang,
  type VerificationResult,
  verifyComposition,
} from '@platform/domain';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Db, isUniqueViolation } from '../../platform/db';
import { docNumber } from '../../platform/doc-numbers';
import { AppError } from '../../platform/envelope';
import { sortedBy } from '../../platform/sorting';
import {
  certify,
  ensureComponents,
  keywordOf,
  type ListQuery,
  molarMasses,
  recipeComposition,
  refuse,
  upsert,
  type WeighedInput,
} from './service';
import {
  type CylinderAnalysis,
  type CylinderCertificate,
  type CylinderStatus,
  gasCylinders,
  gasProducts,
  gasReferenceMaterials,
  type ReferenceValue,
  type RevokedCertificate,
} from './tables';

/** Cylinder serial numbers: letters, digits and . _ / - (what is stamped on a cylinder). */
const SERIAL = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,49}$/;
/** the longest validity a certificate states */
export const MAX_VALID_MONTHS = 120;

type CylinderRow = typeof gasCylinders.$inferSelect;

export interface AnalysisView extends VerificationResult {
  referenceMaterialId: number | null;
}

function cylinderView(row: CylinderRow) {
  return {
    id: row.id,
    serialNumber: row.serialNumber,
    productId: row.productId,
    productName: row.productName,
    balance: row.balance,
    parents: row.parents,
    values: row.certifiedValues,
    analyses: verification(row).results,
    status: row.status,
    analysedAt: row.analysedAt?.toISOString() ?? null,
    certificate: row.certificate,
    revokedCertificates: row.revokedCertificates.map((c) => ({
      number: c.number,
      certifiedOn: c.certifiedOn,
      revokedAt: c.revokedAt,
      reason: c.reason,
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type CylinderView = ReturnType<typeof cylinderView>;

/** JSON has no Infinity: a difference no uncertainty explains has this ratio. */
const UNEXPLAINED_RATIO = 1e9;

/** The analyses against the gravimetric values (both at k = 2). */
function verification(row: Pick<CylinderRow, 'certifiedValues' | 'analyses'>): {
  passed: boolean;
  results: AnalysisView[];
} {
  const checks = row.analyses.map((a) => {
    const value = row.certifiedValues.find((v) => v.component === a.component);
    return {
      component: a.component,
      gravimetric: value?.fraction ?? 0,
      gravimetricU: value?.expanded ?? 0,
      analysed: a.analysed,
      analysedU: a.analysedU,
    };
  });
  const { passed, results } = verifyComposition(checks);
  return {
    passed,
    results: results.map((r, i) => ({
      ...r,
      ratio: Number.isFinite(r.ratio) ? r.ratio : UNEXPLAINED_RATIO,
      referenceMaterialId: row.analyses[i]!.referenceMaterialId,
    })),
  };
}

async function cylinderRow(db: Db, companyId: number, id: number, lock = false): Promise<CylinderRow> {
  const query = db
    .select()
    .from(gasCylinders)
    .where(and(eq(gasCylinders.id, id), eq(gasCylinders.companyId, companyId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  return row;
}

function assertOpen(row: CylinderRow) {
  if (row.status === 'certified')
    throw new AppError('gasCylinderCertified', { sn: row.serialNumber }, { field: 'id' });
}

// ------------------------------------------------------------------ cylinders

export interface CylinderInput {
  serialNumber: string;
  productId?: number;
  parents: WeighedInput[];
}

/** Saves a filled cylinder: its weighed parents and the gravimetric composition they give. */
export async function saveCylinder(db: Db, companyId: number, lang: Lang, input: CylinderInput) {
  const serialNumber = input.serialNumber.trim();
  if (!serialNumber) throw refuse('fieldRequired', 'serialNumber');
  if (!SERIAL.test(serialNumber)) throw refuse('validation', 'serialNumber');
  let product: typeof gasProducts.$inferSelect | undefined;
  if (input.productId !== undefined) {
    [product] = await db
      .select()
      .from(gasProducts)
      .where(and(eq(gasProducts.id, input.productId), eq(gasProducts.companyId, companyId)));
    if (!product) throw new AppError('notFound', {}, { field: 'productId' });
  }
  const result = await certify(db, companyId, lang, input.parents);
  try {
    const [row] = await db
      .insert(gasCylinders)
      .values({
        companyId,
        serialNumber,
        productId: product?.id ?? null,
        productName: product?.name ?? '',
        // without a recipe, the balance is the largest component
        balance: product?.balance ?? result.components[0]!.component,
        parents: input.parents.map((p, i) => ({
          pureGasId: p.pureGasId,
          name: result.names[i]!,
          massG: p.massG,
          uMassG: p.uMassG ?? 0,
        })),
        certifiedValues: result.components,
      })
      .returning({ id: gasCylinders.id });
    return { id: row!.id };
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('gasCylinderTaken', { sn: serialNumber }, { field: 'serialNumber' });
    throw error;
  }
}

export interface CylinderQuery extends ListQuery {
  status?: CylinderStatus;
}

export async function listCylinders(db: Db, companyId: number, query: CylinderQuery) {
  const filters: (SQL | undefined)[] = [
    eq(gasCylinders.companyId, companyId),
    keywordOf(query.keyword, [gasCylinders.serialNumber, gasCylinders.productName, gasCylinders.balance]),
  ];
  if (query.status) filters.push(eq(gasCylinders.status, query.status));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(gasCylinders)
      .where(where)
      .orderBy(
        ...sortedBy(
          {
            serialNumber: gasCylinders.serialNumber,
            productName: gasCylinders.productName,
            status: gasCylinders.status,
            analysedAt: gasCylinders.analysedAt,
            createdAt: gasCylinders.createdAt,
          },
          query,
          [desc(gasCylinders.createdAt), desc(gasCylinders.id)],
        ),
      )
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(gasCylinders).where(where),
  ]);
  return { list: rows.map(cylinderView), total: Number(total?.n ?? 0) };
}

export async function getCylinder(db: Db, companyId: number, id: number): Promise<CylinderView> {
  return cylinderView(await cylinderRow(db, companyId, id));
}

export async function deleteCylinder(db: Db, companyId: number, id: number): Promise<void> {
  const row = await cylinderRow(db, companyId, id, true);
  assertOpen(row);
  await db.delete(gasCylinders).where(and(eq(gasCylinders.id, id), eq(gasCylinders.companyId, companyId)));
}

export interface AnalysisInput {
  id: number;
  analyses: Array<{ component: string; analysed: number; analysedU: number; referenceMaterialId?: number }>;
}

/**
 * Quality control: the analysis results of a cylinder, each against its gravimetric value.
 * Every component of the cylinder's recipe (the balance gas aside) needs a result; the cylinder
 * passes when every result agrees within the combined expanded uncertainties.
 */
export async function saveAnalysis(db: Db, companyId: number, input: AnalysisInput) {
  const row = await cylinderRow(db, companyId, input.id, true);
  assertOpen(row);
  if (input.analyses.length === 0) throw refuse('fieldRequired', 'analyses');
  const seen = new Set<string>();
  const referenceIds = input.analyses.flatMap((a) => (a.referenceMaterialId ? [a.referenceMaterialId] : []));
  const references = referenceIds.length
    ? await db
        .select({ id: gasReferenceMaterials.id })
        .from(gasReferenceMaterials)
        .where(
          and(
            eq(gasReferenceMaterials.companyId, companyId),
            inArray(gasReferenceMaterials.id, referenceIds),
          ),
        )
    : [];
  const analyses: CylinderAnalysis[] = input.analyses.map((a, i) => {
    const field = `analyses[${i}]`;
    if (!row.certifiedValues.some((v) => v.component === a.component))
      throw refuse('gasNotInCylinder', `${field}.component`, { component: a.component });
    if (seen.has(a.component))
      throw refuse('gasComponentTwice', `${field}.component`, { component: a.component });
    seen.add(a.component);
    if (!(Number.isFinite(a.analysed) && a.analysed > 0 && a.analysed < 1))
      throw refuse('gasFractionRange', `${field}.analysed`);
    if (!(Number.isFinite(a.analysedU) && a.analysedU > 0))
      throw refuse('gasNotPositive', `${field}.analysedU`);
    if (a.referenceMaterialId !== undefined && !references.some((r) => r.id === a.referenceMaterialId))
      throw new AppError('notFound', {}, { field: `${field}.referenceMaterialId` });
    return {
      component: a.component,
      analysed: a.analysed,
      analysedU: a.analysedU,
      referenceMaterialId: a.referenceMaterialId ?? null,
    };
  });
  if (row.productId !== null) {
    const [product] = await db
      .select({ name: gasProducts.name, components: gasProducts.components })
      .from(gasProducts)
      .where(eq(gasProducts.id, row.productId));
    const missing = product?.components.find((c) => !seen.has(c.component));
    if (product && missing)
      throw refuse('gasAnalysisMissing', 'analyses', { component: missing.component, name: product.name });
  }
  const { passed, results } = verification({ certifiedValues: row.certifiedValues, analyses });
  const now = new Date();
  await db
    .update(gasCylinders)
    .set({ analyses, status: passed ? 'passed' : 'failed', analysedAt: now, updatedAt: now })
    .where(eq(gasCylinders.id, row.id));
  return { passed, results };
}

export interface CertificateInput {
  id: number;
  certifiedOn: string;
  validMonths: number;
  pressureMPa: number;
  tempMinC: number;
  tempMaxC: number;
  laboratory: string;
  referenceIds: number[];
}

/** Issues the certificate of analysis of a cylinder that passed quality control. */
export async function issueCertificate(db: Db, companyId: number, input: CertificateInput) {
  const row = await cylinderRow(db, companyId, input.id, true);
  assertOpen(row);
  if (row.status !== 'passed')
    throw new AppError('gasNotVerified', { sn: row.serialNumber }, { field: 'id' });
  if (!isCalendarDate(input.certifiedOn)) throw refuse('validation', 'certifiedOn');
  if (
    !(Number.isInteger(input.validMonths) && input.validMonths >= 1 && input.validMonths <= MAX_VALID_MONTHS)
  )
    throw refuse('validation', 'validMonths');
  if (!(Number.isFinite(input.pressureMPa) && input.pressureMPa > 0))
    throw refuse('gasNotPositive', 'pressureMPa');
  if (!(Number.isFinite(input.tempMinC) && input.tempMinC > -273.15)) throw refuse('validation', 'tempMinC');
  if (!(Number.isFinite(input.tempMaxC) && input.tempMaxC > input.tempMinC))
    throw refuse('validation', 'tempMaxC');
  const laboratory = input.laboratory.trim();
  if (!laboratory) throw refuse('fieldRequired', 'laboratory');
  const referenceIds = [...new Set(input.referenceIds)];
  if (referenceIds.length) {
    const found = await db
      .select({ id: gasReferenceMaterials.id })
      .from(gasReferenceMaterials)
      .where(
        and(eq(gasReferenceMaterials.companyId, companyId), inArray(gasReferenceMaterials.id, referenceIds)),
      );
    const known = new Set(found.map((f) => f.id));
    const missing = referenceIds.filter((id) => !known.has(id))[0];
    if (missing !== undefined)
      throw new AppError('notFound', {}, { field: `referenceIds[${referenceIds.indexOf(missing)}]` });
  }
  // a reissue after revocations carries their count, so no two certificates share a number
  const revoked = row.revokedCertificates;
  const base = docNumber('COA', input.certifiedOn, row.id);
  const certificate: CylinderCertificate = {
    number: revoked.length ? `${base}-R${revoked.length}` : base,
    certifiedOn: input.certifiedOn,
    expiresOn: addCalendarMonths(input.certifiedOn, input.validMonths),
    pressureMPa: input.pressureMPa,
    tempMinC: input.tempMinC,
    tempMaxC: input.tempMaxC,
    laboratory,
    referenceIds,
    issuedAt: new Date().toISOString(),
    ...(revoked.length ? { replaces: revoked[revoked.length - 1]!.number } : {}),
  };
  await db
    .update(gasCylinders)
    .set({ certificate, status: 'certified', updatedAt: new Date() })
    .where(eq(gasCylinders.id, row.id));
  return certificate;
}

/** the longest reason a revocation keeps */
export const MAX_REVOKE_REASON = 200;

/**
 * Revokes a cylinder's certificate (a mistake found after issue, a cylinder recalled): the
 * certificate is kept among the revoked with when, who and why, and the cylinder is back to
 * "passed", so quality control may analyse it again and a new certificate may be issued (its
 * number marked as a reissue, naming the one it replaces).
 */
export async function revokeCertificate(
  db: Db,
  companyId: number,
  userId: number,
  input: { id: number; reason: string },
) {
  const row = await cylinderRow(db, companyId, input.id, true);
  if (row.status !== 'certified' || !row.certificate)
    throw new AppError('gasNotCertified', { sn: row.serialNumber }, { field: 'id' });
  const reason = input.reason.trim();
  if (!reason) throw refuse('fieldRequired', 'reason');
  if ([...reason].length > MAX_REVOKE_REASON) throw refuse('validation', 'reason');
  const now = new Date();
  const revoked: RevokedCertificate = {
    ...row.certificate,
    revokedAt: now.toISOString(),
    revokedBy: userId,
    reason,
  };
  await db
    .update(gasCylinders)
    .set({
      certificate: null,
      status: 'passed',
      revokedCertificates: [...row.revokedCertificates, revoked],
      updatedAt: now,
    })
    .where(and(eq(gasCylinders.id, row.id), eq(gasCylinders.companyId, companyId)));
  return cylinderView({
    ...row,
    certificate: null,
    status: 'passed',
    revokedCertificates: [...row.revokedCertificates, revoked],
    updatedAt: now,
  });
}

/** What the certificate PDF prints: the cylinder, and the reference materials it names. */
export async function certificateOf(db: Db, companyId: number, id: number) {
  const row = await cylinderRow(db, companyId, id);
  if (!row.certificate) throw new AppError('gasNotCertified', { sn: row.serialNumber }, { field: 'id' });
  const ids = [
    ...new Set([
      ...row.certificate.referenceIds,
      ...row.analyses.flatMap((a) => (a.referenceMaterialId ? [a.referenceMaterialId] : [])),
    ]),
  ];
  const references = ids.length
    ? await db
        .select()
        .from(gasReferenceMaterials)
        .where(and(eq(gasReferenceMaterials.companyId, companyId), inArray(gasReferenceMaterials.id, ids)))
        .orderBy(asc(gasReferenceMaterials.name))
    : [];
  return { cylinder: cylinderView(row), certificate: row.certificate, references };
}

// ------------------------------------------------------------------ reference materials

export interface ReferenceInput {
  id?: number;
  name: string;
  certificateNo: string;
  issuer?: string;
  balance: string;
  components: ReferenceValue[];
  expiresOn: string;
  notes?: string;
}

type ReferenceRow = typeof gasReferenceMaterials.$inferSelect;

function referenceView(row: ReferenceRow) {
  return {
    id: row.id,
    name: row.name,
    certificateNo: row.certificateNo,
    issuer: row.issuer,
    balance: row.balance,
    components: row.components,
    expiresOn: row.expiresOn,
    notes: row.notes,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function saveReference(db: Db, companyId: number, lang: Lang, input: ReferenceInput) {
  const name = input.name.trim();
  if (!name) throw refuse('fieldRequired', 'name');
  const certificateNo = input.certificateNo.trim();
  if (!certificateNo) throw refuse('fieldRequired', 'certificateNo');
  await ensureComponents(db, companyId, lang);
  recipeComposition(input, await molarMasses(db, companyId));
  input.components.forEach((c, i) => {
    if (!(Number.isFinite(c.expanded) && c.expanded >= 0 && c.expanded < c.fraction))
      throw refuse('validation', `components[${i}].expanded`);
  });
  if (!isCalendarDate(input.expiresOn)) throw refuse('validation', 'expiresOn');
  return upsert(
    db,
    gasReferenceMaterials,
    companyId,
    input.id,
    {
      name,
      certificateNo,
      issuer: input.issuer?.trim() ?? '',
      balance: input.balance,
      components: input.components.map((c) => ({
        component: c.component,
        fraction: c.fraction,
        expanded: c.expanded,
      })),
      expiresOn: input.expiresOn,
      notes: input.notes?.trim() ?? '',
      updatedAt: new Date(),
    },
    name,
  );
}

export async function listReferences(db: Db, companyId: number, query: ListQuery) {
  const where = and(
    eq(gasReferenceMaterials.companyId, companyId),
    keywordOf(query.keyword, [
      gasReferenceMaterials.name,
      gasReferenceMaterials.certificateNo,
      gasReferenceMaterials.issuer,
      gasReferenceMaterials.balance,
    ]),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(gasReferenceMaterials)
      .where(where)
      .orderBy(
        ...sortedBy(
          {
            name: gasReferenceMaterials.name,
            certificateNo: gasReferenceMaterials.certificateNo,
            expiresOn: gasReferenceMaterials.expiresOn,
          },
          query,
          [asc(gasReferenceMaterials.name), asc(gasReferenceMaterials.id)],
        ),
      )
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(gasReferenceMaterials).where(where),
  ]);
  return { list: rows.map(referenceView), total: Number(total?.n ?? 0) };
}

/** Deletes a reference material no analysis or certificate names (traceability is kept). */
export async function deleteReference(db: Db, companyId: number, id: number): Promise<void> {
  const [row] = await db
    .select()
    .from(gasReferenceMaterials)
    .where(and(eq(gasReferenceMaterials.id, id), eq(gasReferenceMaterials.companyId, companyId)));
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  const [user] = await db
    .select({ sn: gasCylinders.serialNumber })
    .from(gasCylinders)
    .where(
      and(
        eq(gasCylinders.companyId, companyId),
        sql`(${gasCylinders.analyses} @> ${JSON.stringify([{ referenceMaterialId: id }])}::jsonb
          or ${gasCylinders.certificate} -> 'referenceIds' @> ${JSON.stringify([id])}::jsonb)`,
      ),
    )
    .limit(1);
  if (user) throw new AppError('gasReferenceInUse', { name: row.name, sn: user.sn }, { field: 'id' });
  await db
    .delete(gasReferenceMaterials)
    .where(and(eq(gasReferenceMaterials.id, id), eq(gasReferenceMaterials.companyId, companyId)));
}
