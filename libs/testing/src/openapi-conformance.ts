import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Ajv, { type ValidateFunction } from 'ajv';

/** One answer an app gave during a suite: enough to hold it against the app's OpenAPI document. */
export interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  contentType: string;
  body: Buffer;
}

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: object }> }> };
type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, object> };
};

/**
 * Records every answer of `server` (status, content type, body) in `into`, before the app's own
 * request handler runs, without changing anything it sends.
 */
export function recordAnswers(server: Server, into: RecordedAnswer[]): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    const keep = (chunk: unknown) => {
      if (typeof chunk === 'string') chunks.push(Buffer.from(chunk));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    res.write = ((...args: unknown[]) => {
      keep(args[0]);
      return write(...args);
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      if (typeof args[0] !== 'function') keep(args[0]);
      return end(...args);
    }) as typeof res.end;
    res.once('finish', () => {
      into.push({
        method: (req.method ?? '').toLowerCase(),
        path: (req.url ?? '').split('?')[0] ?? '',
        status: res.statusCode,
        contentType: String(res.getHeader('content-type') ?? ''),
        body: Buffer.concat(chunks),
      });
    });
  });
}

/**
 * An OpenAPI 3.0 schema as JSON Schema for ajv: `nullable: true` becomes a type that also allows
 * null, and references into the document's components point at the document added as `openapi`.
 */
function asJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asJsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/')) out[k] = `openapi${v}`;
    else if (k !== 'nullable') out[k] = asJsonSchema(v);
  }
  const { nullable, type } = schema as { nullable?: boolean; type?: unknown };
  if (nullable === true && typeof type === 'string') out.type = [type, 'null'];
  if (nullable === true && Array.isArray(out.enum) && !(out.enum as unknown[]).includes(null))
    out.enum = [...(out.enum as unknown[]), null];
  return out;
}

/** The documented operation a request reached, by method and path template; null when none. */
function operationOf(
  doc: OpenApiDocument,
  method: string,
  path: string,
): { template: string; operation: Operation } | null {
  for (const [template, item] of Object.entries(doc.paths)) {
    const pattern = new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
    );
    const operation = item[method];
    if (operation && pattern.test(path)) return { template, operation };
  }
  return null;
}

/**
 * Holds every recorded answer against the document the app serves at `/docs/openapi.json` (taken
 * from the app, not over HTTP: a suite may end with a dependency of the HTTP road cut):
 * every problem (`application/problem+json`) must match the document's `Problem` schema, every
 * success of a documented operation must be a status the operation declares, and its JSON body
 * must match the schema declared for that status, when one is. Returns what does not hold, one
 * line each (empty when all does).
 */
export function openApiDisagreements(
  served: object | undefined,
  answers: RecordedAnswer[],
): string[] {
  if (!served) return [];
  const doc = served as OpenApiDocument;
  const problemSchema = doc.components?.schemas?.Problem;
  if (!problemSchema) return ['the document has no Problem schema'];
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: 'openapi', components: asJsonSchema(doc.components) as object });
  const problem: ValidateFunction = ajv.compile(asJsonSchema(problemSchema) as object);
  const successes = new Map<object, ValidateFunction>();
  const found = new Set<string>();
  for (const a of answers) {
    // HEAD answers carry the headers of GET's and no body.
    if (a.path.startsWith('/docs') || a.method === 'head') continue;
    if (/^application\/problem\+json/.test(a.contentType)) {
      let body: unknown;
      try {
        body = JSON.parse(a.body.toString('utf8'));
      } catch {
        found.add(
          `${a.method.toUpperCase()} ${a.path} → ${a.status}: a problem whose body is not JSON`,
        );
        continue;
      }
      if (!problem(body))
        found.add(
          `${a.method.toUpperCase()} ${a.path} → ${a.status}: the problem does not match the Problem schema (${ajv.errorsText(problem.errors)})`,
        );
      continue;
    }
    if (a.status < 200 || a.status >= 300) continue;
    const reached = operationOf(doc, a.method, a.path);
    if (!reached) continue;
    const declared = reached.operation.responses?.[String(a.status)];
    if (!declared) {
      found.add(
        `${a.method.toUpperCase()} ${reached.template} → ${a.status}: a success the document does not declare (it declares ${Object.keys(reached.operation.responses ?? {}).join(', ')})`,
      );
      continue;
    }
    // A declared body schema is held against the body (JSON answers only).
    const schema = declared.content?.['application/json']?.schema;
    if (!schema || !/^application\/json/.test(a.contentType)) continue;
    let validate = successes.get(schema);
    if (!validate) successes.set(schema, (validate = ajv.compile(asJsonSchema(schema) as object)));
    if (!validate(JSON.parse(a.body.toString('utf8')))) {
      found.add(
        `${a.method.toUpperCase()} ${reached.template} → ${a.status}: the body does not match the declared schema (${ajv.errorsText(validate.errors)})`,
      );
    }
  }
  return [...found];
}

/**
 * The operations of a document that do not say what they answer on success: each must declare a
 * 2xx or redirect status, and every 200/201/202 it declares must carry an `application/json` schema (204 and
 * redirects have no body to describe). Returns `METHOD /path` for each that does not (empty when
 * all do).
 */
export function operationsWithoutSuccessSchema(served: object): string[] {
  const doc = served as OpenApiDocument;
  const missing: string[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const successes = Object.entries(operation.responses ?? {}).filter(([status]) =>
        /^[23]\d\d$/.test(status),
      );
      // A streamed NDJSON answer (user export) declares the schema of its lines under its own media
      // type; a SAML service provider's metadata is XML (application/samlmetadata+xml).
      const described =
        successes.length > 0 &&
        successes.every(
          ([status, r]) =>
            !['200', '201', '202'].includes(status) ||
            Object.entries(r.content ?? {}).some(
              ([type, media]) =>
                /^application\/(json|x-ndjson|(?:[a-z.-]+\+)?xml)$/.test(type) && !!media.schema,
            ),
        );
      if (!described) missing.push(`${method.toUpperCase()} ${template}`);
    }
  }
  return missing;
}
