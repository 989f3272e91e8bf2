import type { Lang } from '@platform/domain';
import { Type } from 'typebox';
import { callerActor, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Page, paging } from '../../platform/schemas';
import { Sorting } from '../../platform/sorting';
import { companyLetterhead } from '../companies/letterhead';
import { attachment } from '../records/spreadsheet';
import { certificatePdf } from './certificate-pdf';
import {
  certificateOf,
  deleteCylinder,
  deleteReference,
  getCylinder,
  issueCertificate,
  listCylinders,
  listReferences,
  MAX_REVOKE_REASON,
  MAX_VALID_MONTHS,
  revokeCertificate,
  saveAnalysis,
  saveCylinder,
  saveReference,
} from './cylinders';
import { Amount, Formula, ListQuery, MAX_ENTRIES, Parents, Saved } from './schemas';
import { CYLINDER_STATUSES, type CylinderStatus } from './tables';

const CylinderValue = Type.Object({
  component: Type.String(),
  fraction: Type.Number(),
  standard: Type.Number(),
  expanded: Type.Number(),
});
const AnalysisRow = Type.Object({
  component: Type.String(),
  gravimetric: Type.Number(),
  gravimetricU: Type.Number(),
  analysed: Type.Number(),
  analysedU: Type.Number(),
  difference: Type.Number(),
  limit: Type.Number(),
  ratio: Type.Number({ description: '|difference| / limit; a value that cannot be explained is 1e9' }),
  passed: Type.Boolean(),
  referenceMaterialId: Type.Union([Type.Integer(), Type.Null()]),
});
const Certificate = Type.Object({
  number: Type.String(),
  certifiedOn: Type.String(),
  expiresOn: Type.String(),
  pressureMPa: Type.Number(),
  tempMinC: Type.Number(),
  tempMaxC: Type.Number(),
  laboratory: Type.String(),
  referenceIds: Type.Array(Type.Integer()),
  issuedAt: Type.String(),
  replaces: Type.Optional(Type.String({ description: 'the revoked certificate this reissue replaces' })),
});
const Revoked = Type.Object({
  number: Type.String(),
  certifiedOn: Type.String(),
  revokedAt: Type.String(),
  reason: Type.String(),
});
/** a union of the statuses' literals, typed as the status (mapped, the union alone would not be) */
const Status = Type.Unsafe<CylinderStatus>(
  Type.Union(CYLINDER_STATUSES.map((status) => Type.Literal(status))),
);
const CylinderRow = Type.Object({
  id: Type.Integer(),
  serialNumber: Type.String(),
  productId: Type.Union([Type.Integer(), Type.Null()]),
  productName: Type.String(),
  balance: Type.String(),
  parents: Type.Array(
    Type.Object({
      pureGasId: Type.Integer(),
      name: Type.String(),
      massG: Type.Number(),
      uMassG: Type.Number(),
    }),
  ),
  values: Type.Array(CylinderValue),
  analyses: Type.Array(AnalysisRow),
  status: Status,
  analysedAt: Type.Union([Type.String(), Type.Null()]),
  certificate: Type.Union([Certificate, Type.Null()]),
  revokedCertificates: Type.Array(Revoked),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
const ReferenceBody = Type.Object({ component: Formula, fraction: Amount, expanded: Amount });
const ReferenceRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  certificateNo: Type.String(),
  issuer: Type.String(),
  balance: Type.String(),
  components: Type.Array(ReferenceBody),
  expiresOn: Type.String(),
  notes: Type.String(),
  updatedAt: Type.String(),
});

/**
 * Filled cylinders (saved from the calculation), quality control, certificates of analysis and
 * reference materials under /general/gas. Writes that read and then change a cylinder run in
 * one transaction with the row locked, so two people cannot pass and certify past each other.
 */
export default async function cylinderRoutes(app: App): Promise<void> {
  app.get(
    '/gas/cylinder/list',
    {
      config: { permission: ['gm_quality_ctrl', 'gm_cert_report', 'gm_component_cal'] },
      schema: {
        tags: ['gas'],
        summary: 'Filled cylinders, newest first, by serial number or product and by status',
        querystring: Type.Object({
          ...ListQuery.properties,
          ...Sorting(['serialNumber', 'productName', 'status', 'analysedAt', 'createdAt']),
          status: Type.Optional(Status),
        }),
        response: { 200: Envelope(Page(CylinderRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const result = await listCylinders(app.db, callerCompany(request), {
        keyword: request.query.keyword,
        sortField: request.query.sortField,
        sortOrder: request.query.sortOrder,
        status: request.query.status,
        limit: page.limit,
        offset: page.offset,
      });
      return ok({ ...result, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.get(
    '/gas/cylinder/get',
    {
      config: { permission: ['gm_quality_ctrl', 'gm_cert_report', 'gm_component_cal'] },
      schema: {
        tags: ['gas'],
        summary: 'One cylinder with its verification',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(CylinderRow) },
      },
    },
    async (request) => ok(await getCylinder(app.db, callerCompany(request), request.query.id)),
  );

  app.post(
    '/gas/cylinder/save',
    {
      config: { permission: 'gm_component_cal' },
      schema: {
        tags: ['gas'],
        summary: 'Save a filled cylinder: its weighed parent gases and their gravimetric composition',
        body: Type.Object({
          serialNumber: Type.String({ maxLength: 50 }),
          productId: Type.Optional(Id),
          parents: Parents,
        }),
        response: { 200: Saved },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) =>
          saveCylinder(tx, callerCompany(request), request.lang, request.body),
        ),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/gas/cylinder/delete',
    {
      config: { permission: 'gm_quality_ctrl' },
      schema: {
        tags: ['gas'],
        summary: 'Delete a cylinder that has no certificate',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await app.db.transaction((tx) => deleteCylinder(tx, callerCompany(request), request.body.id));
      return ok(null, 'deleted', request.lang);
    },
  );

  app.post(
    '/gas/cylinder/analysis',
    {
      config: { permission: 'gm_quality_ctrl' },
      schema: {
        tags: ['gas'],
        summary:
          'Quality control: the analysis results (amount fractions, U at k = 2); passes when |x_grav − x_anal| ≤ √(U_grav² + U_anal²) for each',
        body: Type.Object({
          id: Id,
          analyses: Type.Array(
            Type.Object({
              component: Formula,
              analysed: Amount,
              analysedU: Amount,
              referenceMaterialId: Type.Optional(Id),
            }),
            { maxItems: MAX_ENTRIES },
          ),
        }),
        response: {
          200: Envelope(Type.Object({ passed: Type.Boolean(), results: Type.Array(AnalysisRow) })),
        },
      },
    },
    async (request) => {
      const result = await app.db.transaction((tx) => saveAnalysis(tx, callerCompany(request), request.body));
      return ok(result, 'operation', request.lang);
    },
  );

  app.post(
    '/gas/cylinder/certify',
    {
      config: { permission: 'gm_cert_report' },
      schema: {
        tags: ['gas'],
        summary: 'Issue the certificate of analysis of a cylinder that passed quality control',
        body: Type.Object({
          id: Id,
          certifiedOn: Type.String({ maxLength: 10, description: 'YYYY-MM-DD' }),
          validMonths: Type.Integer({ description: `1 to ${MAX_VALID_MONTHS}` }),
          pressureMPa: Amount,
          tempMinC: Amount,
          tempMaxC: Amount,
          laboratory: Type.String({ maxLength: 100 }),
          referenceIds: Type.Array(Id, { maxItems: MAX_ENTRIES }),
        }),
        response: { 200: Envelope(Certificate) },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => issueCertificate(tx, callerCompany(request), request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/gas/cylinder/revoke',
    {
      config: { permission: 'gm_cert_report' },
      schema: {
        tags: ['gas'],
        summary:
          'Revoke a cylinder’s certificate with a reason: kept among the revoked, the cylinder back to passed for a reissue',
        body: Type.Object({
          id: Id,
          reason: Type.String({ maxLength: MAX_REVOKE_REASON * 2 }),
        }),
        response: { 200: Envelope(CylinderRow) },
      },
    },
    async (request) => {
      const { companyId, userId } = callerActor(request);
      return ok(
        await app.db.transaction((tx) => revokeCertificate(tx, companyId, userId, request.body)),
        'operation',
        request.lang,
      );
    },
  );

  app.get(
    '/gas/cylinder/certificate',
    {
      config: { permission: 'gm_cert_report' },
      schema: {
        tags: ['gas'],
        summary: 'The certificate of analysis as a PDF, in Chinese or English, with the company logo',
        querystring: Type.Object({
          id: Id,
          lang: Type.Optional(Type.Union([Type.Literal('zh'), Type.Literal('en')])),
        }),
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'the PDF' }),
        },
      },
    },
    async (request, reply) => {
      const companyId = callerCompany(request);
      const lang: Lang = request.query.lang ?? request.lang;
      const data = await certificateOf(app.db, companyId, request.query.id);
      const pdf = await certificatePdf(data, await companyLetterhead(app, companyId), lang);
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          attachment(`${data.certificate.number}-${data.cylinder.serialNumber}-${lang}.pdf`),
        )
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );

  // reference materials (gm_ref_material)
  app.get(
    '/gas/reference/list',
    {
      // quality control and certificates name the standards they used
      config: { permission: ['gm_ref_material', 'gm_quality_ctrl', 'gm_cert_report'] },
      schema: {
        tags: ['gas'],
        summary: 'Certified reference materials',
        querystring: Type.Object({
          ...ListQuery.properties,
          ...Sorting(['name', 'certificateNo', 'expiresOn']),
        }),
        response: { 200: Envelope(Page(ReferenceRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const result = await listReferences(app.db, callerCompany(request), {
        keyword: request.query.keyword,
        sortField: request.query.sortField,
        sortOrder: request.query.sortOrder,
        limit: page.limit,
        offset: page.offset,
      });
      return ok({ ...result, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.post(
    '/gas/reference/save',
    {
      config: { permission: 'gm_ref_material' },
      schema: {
        tags: ['gas'],
        summary: 'Add or edit a reference material (fractions and U in mol/mol; the balance gas is the rest)',
        body: Type.Object({
          id: Type.Optional(Id),
          name: Type.String({ maxLength: 50 }),
          certificateNo: Type.String({ maxLength: 50 }),
          issuer: Type.Optional(Type.String({ maxLength: 100 })),
          balance: Formula,
          components: Type.Array(ReferenceBody, { maxItems: MAX_ENTRIES }),
          expiresOn: Type.String({ maxLength: 10, description: 'YYYY-MM-DD' }),
          notes: Type.Optional(Type.String({ maxLength: 500 })),
        }),
        response: { 200: Saved },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) =>
          saveReference(tx, callerCompany(request), request.lang, request.body),
        ),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/gas/reference/delete',
    {
      config: { permission: 'gm_ref_material' },
      schema: {
        tags: ['gas'],
        summary: 'Delete a reference material no analysis or certificate names',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await deleteReference(app.db, callerCompany(request), request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );
}
