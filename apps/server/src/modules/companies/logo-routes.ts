import { Type } from 'typebox';
import { callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError, ok } from '../../platform/envelope';
import { uploadedImage } from '../../platform/images';
import { EmptyEnvelope, Envelope, Id } from '../../platform/schemas';
import { removeCompanyLogo, setCompanyLogo } from './logo';
import { findLiveCompany } from './service';

export default async function logoRoutes(app: App): Promise<void> {
  app.post(
    '/cos/uploadCompanyLogo',
    {
      config: { permission: 'sys_company_info' },
      schema: {
        tags: ['companies'],
        summary: 'Upload the current company logo (multipart `file`, JPG or PNG, at most 3 MB)',
        consumes: ['multipart/form-data'],
        response: {
          200: Envelope(Type.Object({ logoUrl: Type.String(), logoThumbnailUri: Type.String() })),
        },
      },
    },
    async (request) => {
      const companyId = callerCompany(request);
      const image = await uploadedImage(request);
      return ok(await setCompanyLogo(app.db, app.storage, companyId, image), 'operation', request.lang);
    },
  );

  app.post(
    '/cos/removeCompanyLogo',
    {
      config: { permission: 'sys_company_info' },
      schema: {
        tags: ['companies'],
        summary: 'Clear the current company logo (the web falls back to the default)',
        body: Type.Object({}),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await removeCompanyLogo(app.db, app.storage, callerCompany(request));
      return ok(null, 'deleted', request.lang);
    },
  );

  app.post(
    '/cos/removeSysCompanyLogo',
    {
      // cross-company by design: the platform operator clears any company's logo; only roles
      // of the platform company can carry system_company (see menuCodesOf)
      config: { permission: 'system_company' },
      schema: {
        tags: ['companies'],
        summary: "Platform maintenance: clear any company's logo",
        body: Type.Object({ companyId: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { companyId } = request.body;
      if (!(await findLiveCompany(app.db, companyId)))
        throw new AppError('notFound', {}, { field: 'companyId' });
      await removeCompanyLogo(app.db, app.storage, companyId);
      return ok(null, 'deleted', request.lang);
    },
  );
}
