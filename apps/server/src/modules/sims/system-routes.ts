/**
 * SIM cards in system maintenance (code system_sim, which counts only in the platform
 * operator's company): every company's cards and the platform's stock, assignment of cards to
 * the companies that buy them, the carrier sync on demand, and suspend / resume through the
 * carrier.
 */
import { simCarrierLabel, simStateLabel } from '@platform/domain';
import { Type } from 'typebox';
import { caller } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Page, paging } from '../../platform/schemas';
import { CarrierError, CarrierRefusal } from './carrier';
import { simFileRoutes, zoneOf } from './file-routes';
import {
  DetailQuery,
  SimDetailSchema,
  SimRowSchema,
  SYSTEM_PERMISSION,
  SystemListQuery,
  UpdateBody,
} from './schemas';
import {
  acknowledgeMove,
  assignCards,
  cardDetail,
  cardFor,
  companyChoices,
  listCards,
  orderOf,
  type Scope,
  updateCard,
} from './service';
import { setCardState, syncNow } from './sync';

const BASE = '/system/sim';
const TAG = ['system sims'];
const SYSTEM: Scope = { kind: 'system' };
export const ASSIGN_MAX = 500;

export default async function systemRoutes(app: App): Promise<void> {
  app.get(
    `${BASE}/list`,
    {
      config: { permission: SYSTEM_PERMISSION },
      schema: {
        tags: TAG,
        summary: 'A page of every SIM card on the platform, with its company (null: the stock)',
        querystring: SystemListQuery,
        response: { 200: Envelope(Page(SimRowSchema)) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = paging(q);
      const { list, total } = await listCards(app.db, SYSTEM, q, orderOf(q.sortField, q.sortOrder), page);
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.get(
    `${BASE}/detail`,
    {
      config: { permission: SYSTEM_PERMISSION },
      schema: {
        tags: TAG,
        summary: 'A card with its whole history: usage readings of the last `days`, gateways, last move',
        querystring: DetailQuery,
        response: { 200: Envelope(SimDetailSchema) },
      },
    },
    async (request) => {
      const { id, days } = request.query;
      return ok(await cardDetail(app.db, SYSTEM, id, days ?? 31));
    },
  );

  app.post(
    `${BASE}/update`,
    {
      config: { permission: SYSTEM_PERMISSION },
      schema: {
        tags: TAG,
        summary: "Change a card's plan and notes",
        body: UpdateBody,
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { id, planMb, notes } = request.body;
      await updateCard(app.db, SYSTEM, id, { planMb, notes });
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    `${BASE}/acknowledgeMove`,
    {
      config: { permission: SYSTEM_PERMISSION },
      schema: {
        tags: TAG,
        summary: "Clear a card's moved flag",
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await acknowledgeMove(app.db, SYSTEM, request.body.id, caller(request).userId);
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    `${BASE}/assign`,
    {
      config: { permission: SYSTEM_PERMISSION },
      schema: {
        tags: TAG,
        summary: 'Give cards to a company (companyId), or back to the stock (null): all of them or none',
        body: Type.Object({
          ids: Type.Array(Id, { minItems: 1, maxItems: ASSIGN_MAX }),
          companyId: Type.Union([Id, Type.Null()]),
        }),
        response: { 200: Envelope(Type.Object({ changed: Type.Integer() })) },
      },
    },
    async (request) => {
      const { ids, companyId } = request.body;
      const changed = await assignCards(app.db, ids, companyId);
      return ok({ changed }, 'operation', request.lang);
    },
  );

  app.get(
    `${BASE}/companies`,
    {
      config: { permission: SYSTEM_PERMISSION },
      schema: {
        tags: TAG,
        summary: 'Companies cards can be assigned to (at most 50, by name)',
        querystring: Type.Object({ keyword: Type.Optional(Type.String({ maxLength: 50 })) }),
        response: { 200: Envelope(Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() }))) },
      },
    },
    async (request) => ok(await companyChoices(app.db, request.query.keyword)),
  );

  app.post(
    `${BASE}/sync`,
    {
      config: { permission: SYSTEM_PERMISSION },
      schema: {
        tags: TAG,
        summary: "Ask the carriers now for the cards' states and usage (the cards of `ids`, or all)",
        body: Type.Object({ ids: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: ASSIGN_MAX })) }),
        response: {
          200: Envelope(
            Type.Object({ cards: Type.Integer(), updated: Type.Integer(), failed: Type.Integer() }),
          ),
        },
      },
    },
    async (request) => {
      if (app.simCarriers.mode === 'off') {
        throw new AppError('simCarrierUnavailable', {
          carrier: request.lang === 'zh' ? '运营商' : 'the carriers',
        });
      }
      return ok(await syncNow(app, request.body.ids), 'operation', request.lang);
    },
  );

  app.post(
    `${BASE}/setState`,
    {
      config: { permission: SYSTEM_PERMISSION },
      schema: {
        tags: TAG,
        summary: 'Suspend or resume a card through its carrier',
        body: Type.Object({ id: Id, action: Type.Union([Type.Literal('suspend'), Type.Literal('resume')]) }),
        response: { 200: Envelope(Type.Object({ state: Type.Integer() })) },
      },
    },
    async (request) => {
      const { id, action } = request.body;
      const card = await cardFor(app.db, SYSTEM, id);
      const lang = request.lang;
      if (card.carrier === 0) throw new AppError('simNoCarrier');
      if (!app.simCarriers.forCarrier(card.carrier as 0 | 1 | 2 | 3)) {
        throw new AppError('simCarrierUnavailable', { carrier: simCarrierLabel(card.carrier, lang) });
      }
      try {
        return ok({ state: await setCardState(app, card, action) }, 'operation', lang);
      } catch (error) {
        if (error instanceof CarrierRefusal) {
          throw new AppError('simStateChangeRefused', { state: simStateLabel(card.state, lang) });
        }
        if (error instanceof CarrierError) throw new AppError('simCarrierFailed');
        throw error;
      }
    },
  );

  await simFileRoutes(app, {
    base: BASE,
    permission: SYSTEM_PERMISSION,
    scope: () => SYSTEM,
    zone: zoneOf(app),
  });
}
