import { Type } from 'typebox';
import { callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Page, paging } from '../../platform/schemas';
import { Sorting } from '../../platform/sorting';
import { Amount, Formula, ListQuery, MAX_ENTRIES, Parents, Saved } from './schemas';
import {
  certify,
  deleteComponent,
  deleteProduct,
  deletePureGas,
  fill,
  getProduct,
  listComponents,
  listProducts,
  listPureGases,
  saveComponent,
  saveProduct,
  savePureGas,
} from './service';

const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

const ComponentRow = Type.Object({
  id: Type.Integer(),
  formula: Type.String(),
  name: Type.String(),
  molarMass: Type.Number(),
  builtIn: Type.Boolean(),
  usedBy: Type.Integer({ description: 'how many pure gases and products hold it' }),
});

const ImpurityBody = Type.Object({
  component: Formula,
  umolPerMol: Amount,
  uUmolPerMol: Type.Optional(
    Type.Number({ description: 'standard uncertainty of the purity analysis, µmol/mol' }),
  ),
});
const PureGasRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  main: Type.String(),
  purity: Type.Number({ description: 'amount fraction of the main component' }),
  impurities: Type.Array(ImpurityBody),
  supplier: Type.String(),
  lot: Type.String(),
  cylinder: Type.String(),
  updatedAt: Type.String(),
});

const ComponentBody = Type.Object({ component: Formula, fraction: Amount });
const Mixture = {
  balance: Formula,
  components: Type.Array(ComponentBody, { maxItems: MAX_ENTRIES }),
  volumeL: Amount,
  pressureMPa: Amount,
  temperatureC: Amount,
  z: Amount,
};
const ProductRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  code: Type.String(),
  balance: Type.String(),
  components: Type.Array(ComponentBody),
  volumeL: Type.Number(),
  pressureMPa: Type.Number(),
  temperatureC: Type.Number(),
  z: Type.Number(),
  notes: Type.String(),
  updatedAt: Type.String(),
});

/**
 * Gas blending (/setgas): gas properties, pure gases, products and the component calculation.
 * A call that may write the company's default components runs in one transaction, so a
 * refused request writes nothing, the defaults included.
 */
export default async function gasRoutes(app: App): Promise<void> {
  // gas properties (gm_gas_info)
  app.get(
    '/gas/component/list',
    {
      // the pure-gas and product forms pick their components from it
      config: { permission: ['gm_gas_info', 'gm_pure_gas', 'gm_product', 'gm_component_cal'] },
      schema: {
        tags: ['gas'],
        summary: "The company's gas components and molar masses (the defaults are written on first use)",
        response: { 200: Envelope(Type.Array(ComponentRow)) },
      },
    },
    async (request) => ok(await listComponents(app.db, callerCompany(request), request.lang)),
  );

  app.post(
    '/gas/component/save',
    {
      config: { permission: 'gm_gas_info' },
      schema: {
        tags: ['gas'],
        summary: 'Add a component, or edit one (a used component keeps its formula)',
        body: Type.Object({
          id: Type.Optional(Id),
          formula: Formula,
          name: Type.String({ maxLength: 50 }),
          molarMass: Amount,
        }),
        response: { 200: Saved },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) =>
          saveComponent(tx, callerCompany(request), request.lang, request.body),
        ),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/gas/component/delete',
    {
      config: { permission: 'gm_gas_info' },
      schema: {
        tags: ['gas'],
        summary: 'Delete a component no pure gas or product uses',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await deleteComponent(app.db, callerCompany(request), request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );

  // pure gases (gm_pure_gas)
  app.get(
    '/gas/pure/list',
    {
      // the calculation page picks the weighed parent gases from it
      config: { permission: ['gm_pure_gas', 'gm_component_cal'] },
      schema: {
        tags: ['gas'],
        summary: 'Parent gases with their purity tables',
        querystring: Type.Object({
          ...ListQuery.properties,
          ...Sorting(['name', 'main', 'supplier', 'lot', 'updatedAt']),
        }),
        response: { 200: Envelope(Page(PureGasRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const result = await listPureGases(app.db, callerCompany(request), {
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
    '/gas/pure/save',
    {
      config: { permission: 'gm_pure_gas' },
      schema: {
        tags: ['gas'],
        summary: 'Add or edit a parent gas (impurities in µmol/mol; the main component is the rest)',
        body: Type.Object({
          id: Type.Optional(Id),
          name: Type.String({ maxLength: 50 }),
          main: Formula,
          impurities: Type.Array(ImpurityBody, { maxItems: MAX_ENTRIES }),
          supplier: Text(100),
          lot: Text(50),
          cylinder: Text(50),
        }),
        response: { 200: Saved },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => savePureGas(tx, callerCompany(request), request.lang, request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/gas/pure/delete',
    {
      config: { permission: 'gm_pure_gas' },
      schema: {
        tags: ['gas'],
        summary: 'Delete a parent gas',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await deletePureGas(app.db, callerCompany(request), request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );

  // products (gm_product)
  app.get(
    '/gas/product/list',
    {
      config: { permission: 'gm_product' },
      schema: {
        tags: ['gas'],
        summary: 'Mixture recipes',
        querystring: Type.Object({
          ...ListQuery.properties,
          ...Sorting(['name', 'code', 'updatedAt']),
        }),
        response: { 200: Envelope(Page(ProductRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const result = await listProducts(app.db, callerCompany(request), {
        keyword: request.query.keyword,
        sortField: request.query.sortField,
        sortOrder: request.query.sortOrder,
        limit: page.limit,
        offset: page.offset,
      });
      return ok({ ...result, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.get(
    '/gas/product/get',
    {
      // the calculation page reads the recipe it calculates
      config: { permission: ['gm_product', 'gm_component_cal'] },
      schema: {
        tags: ['gas'],
        summary: 'One mixture recipe',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(ProductRow) },
      },
    },
    async (request) => ok(await getProduct(app.db, callerCompany(request), request.query.id)),
  );

  app.post(
    '/gas/product/save',
    {
      config: { permission: 'gm_product' },
      schema: {
        tags: ['gas'],
        summary: 'Add or edit a mixture recipe (fractions in mol/mol; the balance gas is the rest)',
        body: Type.Object({
          id: Type.Optional(Id),
          name: Type.String({ maxLength: 50 }),
          code: Text(50),
          notes: Text(500),
          ...Mixture,
        }),
        response: { 200: Saved },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => saveProduct(tx, callerCompany(request), request.lang, request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/gas/product/delete',
    {
      config: { permission: 'gm_product' },
      schema: {
        tags: ['gas'],
        summary: 'Delete a mixture recipe',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await deleteProduct(app.db, callerCompany(request), request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );

  // component calculation (gm_component_cal)
  app.post(
    '/gas/calc/fill',
    {
      config: { permission: 'gm_component_cal' },
      schema: {
        tags: ['gas'],
        summary: 'Forward: the mass of each component to fill, n = pV / (Z·R·T) (ISO 6142-1)',
        body: Type.Object(Mixture),
        response: {
          200: Envelope(
            Type.Object({
              totalMol: Type.Number(),
              molarMass: Type.Number(),
              components: Type.Array(
                Type.Object({
                  component: Type.String(),
                  fraction: Type.Number(),
                  mol: Type.Number(),
                  massG: Type.Number(),
                }),
              ),
            }),
          ),
        },
      },
    },
    async (request) =>
      ok(await app.db.transaction((tx) => fill(tx, callerCompany(request), request.lang, request.body))),
  );

  app.post(
    '/gas/calc/certify',
    {
      config: { permission: 'gm_component_cal' },
      schema: {
        tags: ['gas'],
        summary: 'Inverse: the composition from the weighed parent gases, with U (k = 2)',
        body: Type.Object({
          parents: Parents,
        }),
        response: {
          200: Envelope(
            Type.Object({
              molarMass: Type.Number(),
              components: Type.Array(
                Type.Object({
                  component: Type.String(),
                  fraction: Type.Number(),
                  standard: Type.Number(),
                  expanded: Type.Number(),
                }),
              ),
            }),
          ),
        },
      },
    },
    async (request) => {
      const { molarMass, components } = await app.db.transaction((tx) =>
        certify(tx, callerCompany(request), request.lang, request.body.parents),
      );
      return ok({ molarMass, components });
    },
  );
}
