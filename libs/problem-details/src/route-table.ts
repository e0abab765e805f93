/**
 * Methods registered per path pattern, filled once the app has initialised, so that a request
 * matching a path with the wrong method is answered 405 with `Allow`.
 */
export class RouteTable {
  private readonly routes: { regex: RegExp; methods: Set<string> }[] = [];

  add(pathPattern: string, method: string): void {
    const regex = new RegExp('^' + routePatternSource(pathPattern) + '/?$');
    let entry = this.routes.find((r) => r.regex.source === regex.source);
    if (!entry) {
      entry = { regex, methods: new Set() };
      this.routes.push(entry);
    }
    entry.methods.add(method.toUpperCase());
  }

  /** Methods allowed on `path`, or an empty array when no route has that path. */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const r of this.routes) if (r.regex.test(path)) r.methods.forEach((m) => methods.add(m));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }
}

export const ROUTE_TABLE = Symbol('ROUTE_TABLE');

/** A route as Nest writes it (`/v1/admin/projects/:id/users`) as the source of a regular expression of its paths: each `:param` one segment. */
export function routePatternSource(pathPattern: string): string {
  return pathPattern.replace(/[.+*?^${}()|[\]\\]/g, '\\$&').replace(/\/:[A-Za-z0-9_]+/g, '/[^/]+');
}
