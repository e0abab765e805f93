import createClient, {
  type FetchResponse,
  type MaybeOptionalInit,
  type Middleware,
} from 'openapi-fetch';
import { GatehouseError } from './errors';
import type { paths } from './schema';

export type { paths as AdminPaths } from './schema';

export interface AdminClientOptions {
  /** The control plane (e.g. `http://localhost:4001`). */
  baseUrl: string;
  /** An administrator's access token, or a function giving the current one (`adminSession(…).token`). */
  token: string | (() => string | Promise<string>);
  fetch?: typeof fetch;
  /** Page size of `paginate` (1–100); default 100. */
  pageSize?: number;
}

type JsonOk<Op> = Op extends { responses: { 200: { content: { 'application/json': infer Body } } } }
  ? Body
  : never;
type GetBody<P extends keyof paths> = paths[P] extends { get: infer Op } ? JsonOk<Op> : never;
/** The admin routes that answer `{"<plural>": […], "pagination": {…}}`. */
export type ListPath = {
  [P in keyof paths]: [GetBody<P>] extends [never]
    ? never
    : GetBody<P> extends { pagination: unknown }
      ? P
      : never;
}[keyof paths];
/** One item of a list route. */
export type ListItem<P extends ListPath> = {
  [K in Exclude<keyof GetBody<P>, 'pagination'>]: GetBody<P>[K] extends (infer Item)[]
    ? Item
    : never;
}[Exclude<keyof GetBody<P>, 'pagination'>];
type GetParameters<P extends ListPath> = paths[P] extends { get: { parameters: infer Params } }
  ? Params
  : never;
/** What `paginate` takes: the route's path parameters and its filters (`page` and `limit` are its own). */
export type ListParams<P extends ListPath> = {
  path?: GetParameters<P> extends { path?: infer Path } ? Path : never;
  query?: GetParameters<P> extends { query?: infer Query }
    ? Omit<NonNullable<Query>, 'page' | 'limit'>
    : never;
};

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type PathsWith<M extends Method> = {
  [P in keyof paths]: NonNullable<paths[P][M]> extends never ? never : P;
}[keyof paths];
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type InitArgs<Init> =
  RequiredKeys<Init> extends never
    ? [(Init & { [key: string]: unknown })?]
    : [Init & { [key: string]: unknown }];
/** openapi-fetch's method, with the error branch removed: errors are thrown, so `data` is the success body. */
type ThrowingMethod<M extends Method> = <
  P extends PathsWith<M>,
  Init extends MaybeOptionalInit<paths[P], M>,
>(
  url: P,
  ...init: InitArgs<Init>
) => Promise<{
  data: NonNullable<
    FetchResponse<
      paths[P][M] & Record<string | number, unknown>,
      Init,
      `${string}/${string}`
    >['data']
  >;
  response: Response;
}>;

/**
 * The control plane's typed client (openapi-fetch over the served OpenAPI document's types): every
 * `/v1/admin/*` route with its parameters, body and answer typed. A 4xx/5xx answer or a network
 * failure throws `GatehouseError`, so `data` is always the success body.
 */
export interface AdminClient {
  GET: ThrowingMethod<'get'>;
  POST: ThrowingMethod<'post'>;
  PUT: ThrowingMethod<'put'>;
  PATCH: ThrowingMethod<'patch'>;
  DELETE: ThrowingMethod<'delete'>;
  /** Adds openapi-fetch middleware (logging, tracing headers). */
  use(...middleware: Middleware[]): void;
  /** Every item of a paginated list, page after page, fetched lazily: `for await (const user of admin.paginate('/v1/admin/users', { query: { q: 'ada' } }))`. */
  paginate<P extends ListPath>(path: P, params?: ListParams<P>): AsyncIterableIterator<ListItem<P>>;
}

export function createAdminClient(options: AdminClientOptions): AdminClient {
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100)
    throw new RangeError('createAdminClient: pageSize must be an integer from 1 to 100');
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: options.fetch ?? ((request: Request) => globalThis.fetch(request)),
  });
  const token = typeof options.token === 'function' ? options.token : () => options.token as string;
  const middleware: Middleware = {
    async onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${await token()}`);
      return request;
    },
    async onResponse({ response }) {
      if (!response.ok) throw await GatehouseError.fromResponse(response);
      return response;
    },
    onError({ error }) {
      if (error instanceof GatehouseError) return error;
      return GatehouseError.network(error);
    },
  };
  client.use(middleware);

  async function* paginate<P extends ListPath>(
    path: P,
    params: ListParams<P> = {},
  ): AsyncIterableIterator<ListItem<P>> {
    for (let page = 1; ; page += 1) {
      const get = client.GET as unknown as (
        path: string,
        init: object,
      ) => Promise<{ data: Record<string, unknown> }>;
      const { data } = await get(path, {
        params: { path: params.path, query: { ...(params.query ?? {}), page, limit: pageSize } },
      });
      const items = Object.entries(data).find(
        ([key, value]) => key !== 'pagination' && Array.isArray(value),
      )?.[1] as ListItem<P>[] | undefined;
      const pagination = data.pagination as { total?: number } | undefined;
      if (!items) throw new TypeError(`paginate: ${path} did not answer a list`);
      yield* items;
      // Stop at the total, or at a short page (a list that shrank while being read).
      if (
        items.length < pageSize ||
        typeof pagination?.total !== 'number' ||
        page * pageSize >= pagination.total
      )
        return;
    }
  }

  return Object.assign(client, { paginate }) as unknown as AdminClient;
}
