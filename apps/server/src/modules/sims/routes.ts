/**
 * SIM data cards (docs/sim-cards.md). The company side, code cd_sim, under
 * /devicecommunication/sim: the company's own cards only (another company's card answers
 * 40400, as if it did not exist). System maintenance, code system_sim, is system-routes.ts.
 */
import { Type } from 'typebox';
import { caller, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Page, paging } from '../../platform/schemas';
import { simFileRoutes, zoneOf } from './file-routes';
import {
  COMPANY_PERMISSION,
  DetailQuery,
  ListQuery,
  SimDetailSchema,
  SimRowSchema,
  UpdateBody,
} from './schemas';
import { acknowledgeMove, cardDetail, listCards, orderOf, type Scope, updateCard } from './service';
import systemRoutes from './system-routes';

const BASE = '/devicecommunication/sim';
const TAG = ['sims'];

export default async function simRoutes(app: App): Promise<void> {
  const scope = (request: Parameters<typeof callerCompany>[0]): Scope => ({
    kind: 'company',
    companyId: callerCompany(request),
  });

  app.get(
    `${BASE}/list`,
    {
      config: { permission: COMPANY_PERMISSION },
      schema: {
        tags: TAG,
        summary: "A page of the company's SIM cards: search, filters, sort",
        querystring: ListQuery,
        response: { 200: Envelope(Page(SimRowSchema)) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = paging(q);
      const { list, total } = await listCards(
        app.db,
        scope(request),
        q,
        orderOf(q.sortField, q.sortOrder),
        page,
      );
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.get(
    `${BASE}/detail`,
    {
      config: { permission: COMPANY_PERMISSION },
      schema: {
        tags: TAG,
        summary: 'A card with its usage readings of the last `days` and the gateways it was seen in',
        querystring: DetailQuery,
        response: { 200: Envelope(SimDetailSchema) },
      },
    },
    async (request) => {
      const { id, days } = request.query;
      return ok(await cardDetail(app.db, scope(request), id, days ?? 31));
    },
  );

  app.post(
    `${BASE}/update`,
    {
      config: { permission: COMPANY_PERMISSION },
      schema: {
        tags: TAG,
        summary: "Change a card's plan (MB a month, null for none) and notes",
        body: UpdateBody,
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { id, planMb, notes } = request.body;
      await updateCard(app.db, scope(request), id, { planMb, notes });
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    `${BASE}/acknowledgeMove`,
    {
      config: { permission: COMPANY_PERMISSION },
      schema: {
        tags: TAG,
        summary: "Clear a card's moved flag: someone saw that it is in another gateway now",
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await acknowledgeMove(app.db, scope(request), request.body.id, caller(request).userId);
      return ok(null, 'operation', request.lang);
    },
  );

  await simFileRoutes(app, {
    base: BASE,
    permission: COMPANY_PERMISSION,
    scope,
    zone: zoneOf(app),
  });
  await systemRoutes(app);
}
