/**
 * How requests are checked before a handler sees them.
 *
 * - Bodies must have the declared JSON types exactly: `"ids": 1` is not `[1]` and `true` is
 *   not `1` (with coercion, both once reached handlers as valid and changed data). Query
 *   strings and path parameters are text by nature, so they keep Ajv's coercion (numbers from
 *   text; a lone value where an array is declared); array GET parameters arrive as JSON text
 *   (spec point 7) and are read by their routes.
 * - Every string of a body, query or path, keys included, must be text PostgreSQL can hold
 *   (no NUL, no lone surrogate): one check here instead of one per route, so no route can
 *   pass such text on to the database and fail there.
 */
import AjvCompiler from '@fastify/ajv-compiler';
import { isStorableText } from '@platform/domain';
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema';
import { AppError, errorEnvelope } from './envelope';

const AJV_OPTIONS = { removeAdditional: false, allErrors: false, useDefaults: true } as const;

/** What Fastify hands a validator compiler: one schema of one route and the request part it checks. */
type RouteSchema = FastifyRouteSchemaDef<unknown>;
type Compile = (route: RouteSchema) => unknown;
type Factory = (externalSchemas: unknown, options: unknown) => Compile;
type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;

/** Fastify's schema controller with an exact validator for bodies and a coercing one elsewhere. */
export function schemaController(): SchemaController {
  // Fastify's own compiler (its defaults, formats and pooling), built twice with other options
  const factory = AjvCompiler() as unknown as Factory;
  const buildValidator: Factory = (externalSchemas, serverOptions) => {
    const build = (coerceTypes: false | 'array') =>
      factory(externalSchemas, {
        ...(serverOptions as object),
        customOptions: { ...AJV_OPTIONS, coerceTypes },
      });
    const exact = build(false);
    const coercing = build('array');
    return (route) => (route.httpPart === 'body' ? exact(route) : finiteOnly(coercing(route) as Validate));
  };
  return {
    compilersFactory: {
      buildValidator: buildValidator as unknown as NonNullable<
        SchemaController['compilersFactory']
      >['buildValidator'],
    },
  };
}

interface Validate {
  (data: unknown): boolean;
  errors?: unknown[] | null;
}

/**
 * Ajv's coercion turns the text "Infinity" into a number that then skips `maximum` (its range
 * checks only look at finite numbers): a query or path value coerced so is refused here,
 * through the same validation error as any other.
 */
function finiteOnly(validate: Validate): Validate {
  const checked: Validate = (data) => {
    const valid = validate(data);
    checked.errors = validate.errors;
    if (!valid || data === null || typeof data !== 'object') return valid;
    for (const [key, value] of Object.entries(data)) {
      const values = Array.isArray(value) ? value : [value];
      if (values.some((v) => typeof v === 'number' && !Number.isFinite(v))) {
        checked.errors = [
          { instancePath: `/${key}`, keyword: 'type', params: {}, message: 'must be a finite number' },
        ];
        return false;
      }
    }
    return true;
  };
  return checked;
}

/** Walks a parsed input without recursion (bodies may nest thousands of levels deep). */
function firstUnstorable(input: unknown, root: string): string | null {
  const stack: Array<{ value: unknown; path: string }> = [{ value: input, path: root }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) return path;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], path: join(path, String(i)) });
    } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
      for (const [key, child] of Object.entries(value)) {
        // a key the database cannot hold is named by the object that carries it
        if (!isStorableText(key)) return path || 'request';
        stack.push({ value: child, path: join(path, key) });
      }
    }
  }
  return null;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

const MULTIPART = /^multipart\/form-data\b/i;
/** RFC 2046: a boundary of 1 to 70 characters (the form reader fails on longer or empty ones) */
const BOUNDARY = /;\s*boundary=("[^"]{1,70}"|[^\s;"]{1,70})\s*(;|$)/i;

/**
 * preValidation, before any route's schema or handler: refuses a request carrying text the
 * database cannot hold, naming the field, and a multipart body without a usable boundary (the
 * form reader would fail on it mid-handler).
 */
export async function screenRequest(request: FastifyRequest): Promise<void> {
  const type = request.headers['content-type'] ?? '';
  if (MULTIPART.test(type) && !BOUNDARY.test(type)) {
    throw new AppError('validation', { field: 'content-type' }, { field: 'content-type' });
  }
  const field =
    firstUnstorable(request.params, '') ??
    firstUnstorable(request.query, '') ??
    firstUnstorable(request.body, '');
  if (field !== null)
    throw new AppError('validation', { field: field || 'request' }, { field: field || 'request' });
}

interface ValidationFailure {
  validation: Array<{ instancePath?: string; params?: Record<string, unknown>; keyword?: string }>;
  validationContext?: string;
}

/** Turn Ajv's first failure into a message naming the field. */
export function validationToAppError(error: ValidationFailure): AppError {
  const first = error.validation[0];
  const missing = first?.params?.missingProperty;
  const fromPath = first?.instancePath?.replace(/^\//, '').replace(/\//g, '.');
  const field = (typeof missing === 'string' && missing) || fromPath || error.validationContext || 'request';
  return new AppError(first?.keyword === 'required' ? 'fieldRequired' : 'validation', { field }, { field });
}

/** Errors Fastify raises before routing (a URL it cannot decode, a path parameter too long). */
export function frameworkErrors(_error: Error, request: FastifyRequest, reply: FastifyReply): void {
  const error = new AppError('validation', { field: 'url' }, { field: 'url' });
  reply.status(400).send(errorEnvelope(error, request.lang ?? 'zh'));
}

/** The form reader's error for a multipart body cut short: the sender's fault, not the server's. */
export function isTruncatedForm(error: unknown, request: FastifyRequest): boolean {
  const err = error as { statusCode?: unknown; message?: unknown };
  return (
    request.isMultipart() &&
    err.statusCode === undefined &&
    typeof err.message === 'string' &&
    /unexpected end of multipart data/i.test(err.message)
  );
}
