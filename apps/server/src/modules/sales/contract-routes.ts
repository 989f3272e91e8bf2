import { CONTRACT_STATUSES, isCalendarDate, TEMPLATE_HTML_MAX_LENGTH } from '@platform/domain';
import { Type } from 'typebox';
import { callerActor, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { fieldError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Literals, Page, Paging, paging } from '../../platform/schemas';
import { Sorting } from '../../platform/sorting';
import { attachment } from '../records/spreadsheet';
import {
  contractDocument,
  contractTemplateStarter,
  createContract,
  deleteContract,
  deleteContractTemplate,
  getContract,
  getContractTemplate,
  listContracts,
  listContractTemplates,
  saveContractTemplate,
  signContract,
} from './contracts';

const PERMISSION = 'ss_sale_contract';
const Status = Literals(CONTRACT_STATUSES);

const TemplateRow = Type.Object({ id: Type.Integer(), name: Type.String(), updatedAt: Type.String() });
const TemplateView = Type.Object({ ...TemplateRow.properties, html: Type.String() });

const ContractRow = Type.Object({
  id: Type.Integer(),
  number: Type.String(),
  orderId: Type.Integer(),
  orderNumber: Type.String(),
  customer: Type.String(),
  totalCents: Type.Integer(),
  orderStatus: Type.String(),
  templateId: Type.Union([Type.Integer(), Type.Null()]),
  templateName: Type.String(),
  status: Status,
  signedOn: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});
const ContractView = Type.Object({
  ...ContractRow.properties,
  html: Type.String({ description: 'the filled contract, sanitised HTML' }),
});

/**
 * Sales contracts (/smartSale/salecontract) and contract templates (/smartSale/saletemplate)
 * under /general/sales/contract, code ss_sale_contract; everything within the caller's company.
 */
export default async function salesContractRoutes(app: App): Promise<void> {
  app.get(
    '/sales/contract/template/list',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sales'],
        summary: 'Contract templates of the company, last changed first',
        response: { 200: Envelope(Type.Array(TemplateRow)) },
      },
    },
    async (request) => ok(await listContractTemplates(app.db, callerCompany(request))),
  );

  app.get(
    '/sales/contract/template/starter',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sales'],
        summary: "A new template's body (a plain contract in the caller's language) and the placeholders",
        response: {
          200: Envelope(
            Type.Object({
              html: Type.String(),
              fields: Type.Array(Type.Object({ key: Type.String(), label: Type.String() })),
            }),
          ),
        },
      },
    },
    async (request) => ok(contractTemplateStarter(request.lang)),
  );

  app.get(
    '/sales/contract/template/get',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sales'],
        summary: 'A contract template with its body',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(TemplateView) },
      },
    },
    async (request) => ok(await getContractTemplate(app.db, callerCompany(request), request.query.id)),
  );

  app.post(
    '/sales/contract/template/save',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sales'],
        summary:
          'Save a contract template (a new one without id); the body sanitised, its placeholders order fields',
        body: Type.Object({
          id: Type.Optional(Id),
          name: Type.String({ maxLength: 100 }),
          html: Type.String({ maxLength: TEMPLATE_HTML_MAX_LENGTH }),
        }),
        response: { 200: Envelope(TemplateView) },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => saveContractTemplate(tx, callerActor(request), request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/sales/contract/template/delete',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sales'],
        summary: 'Delete a contract template (the contracts made from it keep their text)',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await deleteContractTemplate(app.db, callerCompany(request), request.body.id);
      return ok(null, 'operation', request.lang);
    },
  );

  app.get(
    '/sales/contract/list',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sales'],
        summary: 'Contracts, newest first, by contract or order number or customer, by status, of one order',
        querystring: Type.Object({
          ...Paging,
          ...Sorting(['number', 'customer', 'totalCents', 'status', 'signedOn', 'createdAt']),
          keyword: Type.Optional(Type.String({ maxLength: 50 })),
          status: Type.Optional(Status),
          orderId: Type.Optional(Id),
        }),
        response: { 200: Envelope(Page(ContractRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      return ok({
        ...(await listContracts(app.db, callerCompany(request), { ...request.query, ...page })),
        ...page,
      });
    },
  );

  app.get(
    '/sales/contract/get',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sales'],
        summary: 'A contract with its filled text',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(ContractView) },
      },
    },
    async (request) => ok(await getContract(app.db, callerCompany(request), request.query.id)),
  );

  app.post(
    '/sales/contract/create',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sales'],
        summary: 'Make the contract of an order from a template (one per order; not of a cancelled order)',
        body: Type.Object({ orderId: Id, templateId: Id }),
        response: { 200: Envelope(ContractView) },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => createContract(tx, callerActor(request), request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/sales/contract/sign',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sales'],
        summary: 'Mark a draft contract signed (on a day, today by default)',
        body: Type.Object({ id: Id, signedOn: Type.Optional(Type.String({ maxLength: 10 })) }),
        response: { 200: Envelope(ContractView) },
      },
    },
    async (request) => {
      const { signedOn } = request.body;
      if (signedOn !== undefined && !isCalendarDate(signedOn)) throw fieldError('signedOn');
      return ok(
        await app.db.transaction((tx) => signContract(tx, callerActor(request), request.body)),
        'operation',
        request.lang,
      );
    },
  );

  app.post(
    '/sales/contract/delete',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sales'],
        summary: 'Delete a draft contract (a signed one is kept)',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await app.db.transaction((tx) => deleteContract(tx, callerActor(request), request.body.id));
      return ok(null, 'operation', request.lang);
    },
  );

  app.get(
    '/sales/contract/document',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sales'],
        summary: 'The contract as a document Word, WPS and LibreOffice open (.doc of HTML)',
        querystring: Type.Object({ id: Id }),
        response: {
          200: Type.Unsafe<string>({ type: 'string', format: 'binary', description: 'the document' }),
        },
      },
    },
    async (request, reply) => {
      const doc = await contractDocument(app.db, callerCompany(request), request.query.id);
      return reply
        .header('content-type', 'application/msword; charset=utf-8')
        .header('content-disposition', attachment(doc.fileName))
        .header('cache-control', 'no-store')
        .send(doc.body);
    },
  );
}
