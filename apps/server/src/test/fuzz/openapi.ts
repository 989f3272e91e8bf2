/** The operations of the generated OpenAPI document, in the shape the fuzzer walks. */

/** The subset of JSON Schema (OpenAPI 3.0 dialect) the route schemas produce. */
export interface Schema {
  type?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
}

export interface Param {
  in: 'path' | 'query';
  name: string;
  required: boolean;
  schema: Schema;
}

export interface Operation {
  /** `METHOD /path` as Fastify registered it (`:param`), the key of seeds and allowances */
  key: string;
  method: string;
  /** the OpenAPI path, `{param}` placeholders */
  path: string;
  params: Param[];
  body: { types: string[]; schema: Schema } | null;
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ in: string; name: string; required?: boolean; schema?: Schema }>;
        requestBody?: { content: Record<string, { schema?: Schema }> };
      }
    >
  >;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function operationsOf(doc: unknown): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries((doc as OpenApiDoc).paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const params: Param[] = (op.parameters ?? [])
        .filter((p) => p.in === 'path' || p.in === 'query')
        .map((p) => ({
          in: p.in as 'path' | 'query',
          name: p.name,
          required: p.required === true,
          schema: p.schema ?? {},
        }));
      const content = op.requestBody?.content ?? null;
      const types = content ? Object.keys(content) : [];
      out.push({
        key: `${method.toUpperCase()} ${path.replace(/\{\*\}/g, '*').replace(/\{(\w+)\}/g, ':$1')}`,
        method: method.toUpperCase(),
        path,
        params,
        body: content ? { types, schema: content[types[0]!]?.schema ?? {} } : null,
      });
    }
  }
  return out;
}
