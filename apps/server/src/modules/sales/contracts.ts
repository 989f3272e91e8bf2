/**
 * Sales contracts and their templates (docs/business.md, "Sales contracts"; code
 * ss_sale_contract). A template's body is sanitised like a document template's and may only
 * name the order fields of domain CONTRACT_FIELDS. A contract is a template filled from one
 * order of the company (domain fillContract) and kept as filled; a draft may be deleted, a
 * signed one is kept. One contract per order.
 */
import {
  CONTRACT_FIELD_LABELS,
  type ContractAction,
  type ContractStatus,
  contractableOrder,
  contractTransition,
  defaultContractHtml,
  fillContract,
  formatInstant,
  type Lang,
  TEMPLATE_HTML_MAX_LENGTH,
  unknownContractField,
} from '@platform/domain';
import { and, asc, count, desc, eq, ne, or, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth';
import { type Db, isUniqueViolation } from '../../platform/db';
import { companyDay, insertNumbered } from '../../platform/doc-numbers';
import { AppError, fieldError } from '../../platform/envelope';
import { likePattern } from '../../platform/like';
import { type SortQuery, sortedBy } from '../../platform/sorting';
import { companyTimeZone } from '../companies/service';
import { companies } from '../companies/tables';
import { sanitizeContractHtml } from '../templates/doc-sanitize';
import { getOrder } from './service';
import { salesContracts, salesContractTemplates, salesOrders } from './tables';

const ACTION_WORDS: Record<ContractAction, Record<Lang, string>> = {
  sign: { zh: '再次签订', en: 'signed again' },
  delete: { zh: '删除', en: 'deleted' },
};

type TemplateRow = typeof salesContractTemplates.$inferSelect;

const templateView = (row: TemplateRow) => ({
  id: row.id,
  name: row.name,
  html: row.html,
  updatedAt: row.updatedAt.toISOString(),
});

export async function listContractTemplates(db: Db, companyId: number) {
  const rows = await db
    .select()
    .from(salesContractTemplates)
    .where(eq(salesContractTemplates.companyId, companyId))
    .orderBy(desc(salesContractTemplates.updatedAt), desc(salesContractTemplates.id));
  return rows.map(({ html: _html, ...row }) => ({ ...row, updatedAt: row.updatedAt.toISOString() }));
}

async function templateRow(db: Db, companyId: number, id: number): Promise<TemplateRow> {
  const [row] = await db
    .select()
    .from(salesContractTemplates)
    .where(and(eq(salesContractTemplates.id, id), eq(salesContractTemplates.companyId, companyId)));
  if (!row) throw new AppError('notFound', { field: 'id' }, { field: 'id' });
  return row;
}

export async function getContractTemplate(db: Db, companyId: number, id: number) {
  return templateView(await templateRow(db, companyId, id));
}

/** What a new template starts from and the placeholders the editor offers, in the caller's language. */
export function contractTemplateStarter(lang: Lang) {
  return {
    html: defaultContractHtml(lang),
    fields: Object.entries(CONTRACT_FIELD_LABELS).map(([key, label]) => ({ key, label: label[lang] })),
  };
}

/**
 * Save a template (a new one without id): the name unique in the company, the body sanitised,
 * within the length limit and naming only contract fields; nothing is written on any refusal.
 */
export async function saveContractTemplate(
  db: Db,
  actor: Actor,
  input: { id?: number; name: string; html: string },
) {
  const name = input.name.trim();
  if (!name) throw fieldError('name', 'fieldRequired');
  if (input.id !== undefined) await templateRow(db, actor.companyId, input.id);
  const html = sanitizeContractHtml(input.html);
  if (html.length > TEMPLATE_HTML_MAX_LENGTH) throw fieldError('html', 'valueTooLong');
  const unknown = unknownContractField(html);
  if (unknown !== null) throw new AppError('unknownField', { field: unknown }, { field: 'html' });
  const [taken] = await db
    .select({ id: salesContractTemplates.id })
    .from(salesContractTemplates)
    .where(
      and(
        eq(salesContractTemplates.companyId, actor.companyId),
        eq(salesContractTemplates.name, name),
        input.id === undefined ? undefined : ne(salesContractTemplates.id, input.id),
      ),
    );
  const takenError = new AppError('salesContractTemplateTaken', { name }, { field: 'name' });
  if (taken) throw takenError;
  try {
    if (input.id === undefined) {
      const [row] = await db
        .insert(salesContractTemplates)
        .values({ companyId: actor.companyId, name, html, updatedBy: actor.userId })
        .returning();
      return templateView(row!);
    }
    const [row] = await db
      .update(salesContractTemplates)
      .set({ name, html, updatedBy: actor.userId, updatedAt: new Date() })
      .where(eq(salesContractTemplates.id, input.id))
      .returning();
    return templateView(row!);
  } catch (error) {
    // two saves of one name at once: the unique index answers the one that came second
    if (isUniqueViolation(error)) throw takenError;
    throw error;
  }
}

/** Delete a template; the contracts made from it keep their text (and the template's name). */
export async function deleteContractTemplate(db: Db, companyId: number, id: number): Promise<void> {
  await templateRow(db, companyId, id);
  await db.delete(salesContractTemplates).where(eq(salesContractTemplates.id, id));
}

type ContractRow = typeof salesContracts.$inferSelect;

const contractColumns = {
  id: salesContracts.id,
  number: salesContracts.number,
  orderId: salesContracts.orderId,
  orderNumber: salesOrders.number,
  customer: salesOrders.customer,
  totalCents: salesOrders.totalCents,
  orderStatus: salesOrders.status,
  templateId: salesContracts.templateId,
  templateName: salesContracts.templateName,
  status: salesContracts.status,
  signedOn: salesContracts.signedOn,
  createdAt: salesContracts.createdAt,
};

const contractView = <T extends { createdAt: Date }>(row: T) => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
});

export async function listContracts(
  db: Db,
  companyId: number,
  query: {
    limit: number;
    offset: number;
    keyword?: string;
    status?: ContractStatus;
    orderId?: number;
  } & SortQuery,
) {
  const k = query.keyword?.trim();
  const pattern = k ? likePattern(k) : '';
  const where = and(
    eq(salesContracts.companyId, companyId),
    query.status ? eq(salesContracts.status, query.status) : undefined,
    query.orderId ? eq(salesContracts.orderId, query.orderId) : undefined,
    k
      ? or(
          sql`${salesContracts.number} ilike ${pattern}`,
          sql`${salesOrders.number} ilike ${pattern}`,
          sql`${salesOrders.customer} ilike ${pattern}`,
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(contractColumns)
      .from(salesContracts)
      .innerJoin(salesOrders, eq(salesOrders.id, salesContracts.orderId))
      .where(where)
      .orderBy(
        ...sortedBy(
          {
            number: salesContracts.number,
            customer: salesOrders.customer,
            totalCents: salesOrders.totalCents,
            status: salesContracts.status,
            signedOn: salesContracts.signedOn,
            createdAt: salesContracts.createdAt,
          },
          query,
          [desc(salesContracts.createdAt), desc(salesContracts.id)],
        ),
      )
      .limit(query.limit)
      .offset(query.offset),
    db
      .select({ n: count() })
      .from(salesContracts)
      .innerJoin(salesOrders, eq(salesOrders.id, salesContracts.orderId))
      .where(where),
  ]);
  return { list: rows.map(contractView), total: Number(total?.n ?? 0) };
}

async function contractRow(db: Db, companyId: number, id: number, lock = false): Promise<ContractRow> {
  const query = db
    .select()
    .from(salesContracts)
    .where(and(eq(salesContracts.id, id), eq(salesContracts.companyId, companyId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('notFound', { field: 'id' }, { field: 'id' });
  return row;
}

export async function getContract(db: Db, companyId: number, id: number) {
  await contractRow(db, companyId, id);
  const [row] = await db
    .select({ ...contractColumns, html: salesContracts.html })
    .from(salesContracts)
    .innerJoin(salesOrders, eq(salesOrders.id, salesContracts.orderId))
    .where(eq(salesContracts.id, id));
  return { ...contractView(row!), html: row!.html };
}

/**
 * Make the contract of an order from a template: the order of the company and not cancelled,
 * without a contract yet (its row locked, so two at once cannot both make one), the template of
 * the company. The body is filled now and kept.
 */
export async function createContract(db: Db, actor: Actor, input: { orderId: number; templateId: number }) {
  const [locked] = await db
    .select({ id: salesOrders.id })
    .from(salesOrders)
    .where(and(eq(salesOrders.id, input.orderId), eq(salesOrders.companyId, actor.companyId)))
    .for('update');
  if (!locked) throw new AppError('notFound', { field: 'orderId' }, { field: 'orderId' });
  const order = await getOrder(db, actor.companyId, input.orderId);
  if (!contractableOrder(order.status))
    throw new AppError('salesContractOrderCancelled', { order: order.number }, { field: 'orderId' });
  const [existing] = await db
    .select({ number: salesContracts.number })
    .from(salesContracts)
    .where(eq(salesContracts.orderId, order.id));
  if (existing)
    throw new AppError(
      'salesContractExists',
      { order: order.number, number: existing.number },
      { field: 'orderId' },
    );
  const [template] = await db
    .select()
    .from(salesContractTemplates)
    .where(
      and(
        eq(salesContractTemplates.id, input.templateId),
        eq(salesContractTemplates.companyId, actor.companyId),
      ),
    );
  if (!template) throw new AppError('notFound', { field: 'templateId' }, { field: 'templateId' });
  const [seller] = await db
    .select({ name: companies.name, displayName: companies.displayName })
    .from(companies)
    .where(eq(companies.id, actor.companyId));
  const tz = await companyTimeZone(db, actor.companyId);
  const day = await companyDay(db, actor.companyId);
  const made = await insertNumbered(db, salesContracts, 'HT', day, {
    companyId: actor.companyId,
    orderId: order.id,
    templateId: template.id,
    templateName: template.name,
    html: '',
    createdBy: actor.userId,
  });
  const html = fillContract(
    template.html,
    { ...order, orderDate: formatInstant(Date.parse(order.createdAt), 'yyyy-MM-dd', tz) },
    {
      contractNo: made.number,
      signDate: day,
      seller: seller?.displayName || seller?.name || '',
      lang: actor.lang,
    },
  );
  await db.update(salesContracts).set({ html }).where(eq(salesContracts.id, made.id));
  return getContract(db, actor.companyId, made.id);
}

function contractStateError(action: ContractAction, lang: Lang): AppError {
  return new AppError('salesContractState', { action: ACTION_WORDS[action][lang] }, { field: 'id' });
}

/** Sign a draft on a day (today in the company's zone unless given). */
export async function signContract(db: Db, actor: Actor, input: { id: number; signedOn?: string }) {
  const row = await contractRow(db, actor.companyId, input.id, true);
  const next = contractTransition(row.status, 'sign');
  if (next !== 'signed') throw contractStateError('sign', actor.lang);
  const signedOn = input.signedOn ?? (await companyDay(db, actor.companyId));
  await db
    .update(salesContracts)
    .set({ status: next, signedOn, updatedAt: new Date() })
    .where(eq(salesContracts.id, row.id));
  return getContract(db, actor.companyId, row.id);
}

export async function deleteContract(db: Db, actor: Actor, id: number): Promise<void> {
  const row = await contractRow(db, actor.companyId, id, true);
  if (contractTransition(row.status, 'delete') !== 'deleted') throw contractStateError('delete', actor.lang);
  await db.delete(salesContracts).where(eq(salesContracts.id, row.id));
}

/**
 * The contract as a Word-readable document: an HTML file Word, WPS and LibreOffice open as a
 * document (the "doc" of HTML with Office's namespaces), with the page's table borders.
 */
export async function contractDocument(db: Db, companyId: number, id: number) {
  const contract = await getContract(db, companyId, id);
  const body = [
    '<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word">',
    '<head><meta charset="utf-8"><title>',
    contract.number,
    '</title><style>body{font-family:"SimSun","Songti SC",serif;font-size:12pt}',
    'table{border-collapse:collapse;width:100%}td,th{border:1px solid #000;padding:4px 6px}',
    'h1{text-align:center;font-size:18pt}</style></head><body>',
    contract.html,
    '</body></html>',
  ].join('');
  return { fileName: `${contract.number}.doc`, body };
}

/** Contracts per order, for the order list and detail (the order's contract, if any). */
export async function contractOfOrder(db: Db, companyId: number, orderId: number) {
  const [row] = await db
    .select({ id: salesContracts.id, number: salesContracts.number, status: salesContracts.status })
    .from(salesContracts)
    .where(and(eq(salesContracts.companyId, companyId), eq(salesContracts.orderId, orderId)))
    .orderBy(asc(salesContracts.id));
  return row ?? null;
}
