/**
 * Document and rich-text templates (docs/api-data-engine.md, "Document templates"): routes
 * under /general/smartdata/template/…, menu code sd_capsule. A template is addressed by the id
 * of its cabin node (docTemplate / richTemplate); nodes are made, renamed and deleted through
 * the cabin routes.
 */
import { DATA_PERMISSION, TEMPLATE_HTML_MAX_LENGTH } from '@platform/domain';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { uploadedImage } from '../../platform/images';
import { Envelope, Id } from '../../platform/schemas';
import { dataCaller } from '../cabin/routes';
import {
  docTemplateFor,
  listDocTemplates,
  renderDocFor,
  saveDocTemplate,
  storeTemplateImage,
} from './doc-service';

const PERMISSION = 'sd_capsule';

const NullableInt = Type.Union([Type.Integer(), Type.Null()]);

const DocTemplateRow = Type.Object({
  id: Type.Integer({ description: 'cabin node id' }),
  templateId: Type.Integer(),
  type: Type.Union([Type.Literal('docTemplate'), Type.Literal('richTemplate')]),
  name: Type.String(),
  parentId: NullableInt,
  itemId: NullableInt,
  itemName: Type.Union([Type.String(), Type.Null()]),
  level: Type.Integer(),
  updatedAt: Type.String(),
});

const DocTemplateView = Type.Object({
  ...DocTemplateRow.properties,
  html: Type.String({ description: 'sanitised HTML; placeholders <span data-field="KEY">label</span>' }),
});

export default async function docTemplateRoutes(app: App): Promise<void> {
  app.get(
    '/smartdata/template/list',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['templates'],
        summary: 'Document and rich-text templates the caller can read (with itemId: those bound to it)',
        querystring: Type.Object({ itemId: Type.Optional(Id) }),
        response: { 200: Envelope(Type.Array(DocTemplateRow)) },
      },
    },
    async (request) => ok(await listDocTemplates(app.db, dataCaller(request), request.query.itemId)),
  );

  app.get(
    '/smartdata/template/get',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['templates'],
        summary: 'A document or rich-text template with its body (read level on the node)',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(DocTemplateView) },
      },
    },
    async (request) =>
      ok(await docTemplateFor(app.db, dataCaller(request), request.query.id, DATA_PERMISSION.read)),
  );

  app.post(
    '/smartdata/template/save',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['templates'],
        summary: 'Save the body (sanitised) and the bound item (write level on the node)',
        body: Type.Object({
          id: Id,
          html: Type.String({ maxLength: TEMPLATE_HTML_MAX_LENGTH }),
          itemId: Type.Optional(Type.Union([Id, Type.Null()], { description: 'omitted or null: unbound' })),
        }),
        response: { 200: Envelope(DocTemplateView) },
      },
    },
    async (request) => {
      const { id, html, itemId } = request.body;
      const saved = await saveDocTemplate(app.db, dataCaller(request), { id, html, itemId: itemId ?? null });
      return ok(saved, 'operation', request.lang);
    },
  );

  app.get(
    '/smartdata/template/render',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['templates'],
        summary: "A template filled with one record's values (read level on the template and the item)",
        querystring: Type.Object({ id: Id, itemId: Id, recordId: Id }),
        response: {
          200: Envelope(
            Type.Object({
              id: Type.Integer(),
              name: Type.String(),
              type: Type.String(),
              itemId: Type.Integer(),
              itemName: Type.String(),
              recordId: Type.Integer(),
              ts: Type.String(),
              tsText: Type.String({ description: 'record time in the company zone' }),
              timeZone: Type.String({ description: "the company's IANA time zone the document reads in" }),
              html: Type.String(),
            }),
          ),
        },
      },
    },
    async (request) => ok(await renderDocFor(app.db, app.fileLinks, dataCaller(request), request.query)),
  );
  app.post(
    '/smartdata/template/image',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['templates'],
        summary:
          'Upload an image for a template body (multipart `file`, JPG or PNG, at most 3 MB; write level on the template)',
        consumes: ['multipart/form-data'],
        querystring: Type.Object({ id: Id }),
        response: {
          200: Envelope(Type.Object({ url: Type.String({ description: 'the src to use in the body' }) })),
        },
      },
    },
    async (request) => {
      const caller = dataCaller(request);
      // the template first: nothing of an upload to a template the caller may not write is read
      const template = await docTemplateFor(app.db, caller, request.query.id, DATA_PERMISSION.write);
      const image = await uploadedImage(request);
      const stored = await storeTemplateImage(app.storage, caller, template, image);
      return ok(stored, 'operation', request.lang);
    },
  );
}
