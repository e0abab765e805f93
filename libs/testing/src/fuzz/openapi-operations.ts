/** The parts of an OpenAPI 3 document the fuzzer reads. */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  example?: unknown;
  default?: unknown;
  $ref?: string;
  allOf?: JsonSchema[];
}

export interface ParameterSpec {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** One operation of the document: what the fuzzer may vary. */
export interface FuzzOperation {
  method: string;
  /** The path template, e.g. `/v1/admin/users/{id}`. */
  template: string;
  pathParams: string[];
  query: ParameterSpec[];
  headers: ParameterSpec[];
  /** The JSON request body's schema ($refs resolved), or null when the operation documents none. */
  body: JsonSchema | null;
  /** Every method the document lists for this path (a 405 must name them in `Allow`). */
  methodsOfPath: string[];
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, JsonSchema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** A schema with its `$ref`s and `allOf`s resolved (recursively, up to a depth). */
export function resolveSchema(
  doc: OpenApiDocument,
  schema: JsonSchema | undefined,
  depth = 0,
): JsonSchema {
  if (!schema || depth > 8) return {};
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return resolveSchema(doc, doc.components?.schemas?.[name], depth + 1);
  }
  let out: JsonSchema = { ...schema };
  if (schema.allOf) {
    delete out.allOf;
    for (const part of schema.allOf) {
      const r = resolveSchema(doc, part, depth + 1);
      out = {
        ...r,
        ...out,
        properties: { ...r.properties, ...out.properties },
        required: [...(r.required ?? []), ...(out.required ?? [])],
      };
    }
  }
  if (out.properties) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties).map(([k, v]) => [k, resolveSchema(doc, v, depth + 1)]),
    );
  }
  if (out.items) out.items = resolveSchema(doc, out.items, depth + 1);
  return out;
}

/** Every operation of the document, in document order. */
export function operationsOf(doc: OpenApiDocument): FuzzOperation[] {
  const ops: FuzzOperation[] = [];
  for (const [template, operations] of Object.entries(doc.paths)) {
    const methodsOfPath = Object.keys(operations).filter((m) => METHODS.includes(m));
    for (const method of methodsOfPath) {
      const op = operations[method];
      const params = op.parameters ?? [];
      const spec = (where: string) =>
        params
          .filter((p) => p.in === where)
          .map((p) => ({
            name: p.name,
            required: p.required === true,
            schema: resolveSchema(doc, p.schema),
          }));
      const json = op.requestBody?.content?.['application/json']?.schema;
      ops.push({
        method,
        template,
        pathParams: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
        query: spec('query'),
        headers: spec('header'),
        body: json ? resolveSchema(doc, json) : null,
        methodsOfPath,
      });
    }
  }
  return ops;
}

/** Every `enum` value and `example` string in the document: words the API knows (factors, roles, providers…). */
export function knownWords(doc: OpenApiDocument): string[] {
  const words = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
        if (k === 'enum' && Array.isArray(child))
          child.filter((x) => typeof x === 'string').forEach((x) => words.add(x));
        else if (k === 'example' && typeof child === 'string') words.add(child);
        else visit(child);
      }
    }
  };
  visit(doc);
  return [...words];
}
