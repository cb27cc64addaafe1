import { OpenApiDocument, OperationObject } from './official-spec';

/**
 * Which server a path is relative to. The contract's payload locations (`/{pixUrlAccessToken}`,
 * `/cobv/{pixUrlAccessToken}`, `/rec/{recUrlAccessToken}`) declare their own server; mixing them with
 * the API's paths would make `GET /cobv/{txid}` ambiguous and `GET /anything` match a location.
 */
export type SpecServer = 'api' | 'location';

export interface MatchedOperation {
  template: string;
  method: string;
  operation: OperationObject;
}

export type PathMatch =
  | { kind: 'operation'; match: MatchedOperation }
  | { kind: 'method-not-documented'; template: string; methods: string[] }
  | { kind: 'path-not-documented' };

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

interface Route {
  template: string;
  segments: string[];
  isParam: boolean[];
  operations: Map<string, OperationObject>;
}

export class PathMatcher {
  private readonly routes: Record<SpecServer, Route[]> = { api: [], location: [] };

  constructor(spec: OpenApiDocument) {
    for (const [template, item] of Object.entries(spec.paths)) {
      for (const method of METHODS) {
        const operation = item[method] as OperationObject | undefined;
        if (!operation) continue;
        const server: SpecServer = (operation.servers ?? item.servers) ? 'location' : 'api';
        this.route(server, template).operations.set(method, operation);
      }
    }
    // Most specific first, so the first route that matches wins.
    for (const routes of Object.values(this.routes)) routes.sort(bySpecificity);
  }

  /** `requestPath` is the concrete path without the base path; a query string is ignored. */
  match(method: string, requestPath: string, server: SpecServer = 'api'): PathMatch {
    const segments = splitPath(requestPath.split(/[?#]/)[0]);
    const matching = this.routes[server].filter((route) => matches(route, segments));
    const wanted = method.toLowerCase();
    for (const route of matching) {
      const operation = route.operations.get(wanted);
      if (operation) return { kind: 'operation', match: { template: route.template, method: wanted, operation } };
    }
    if (matching.length === 0) return { kind: 'path-not-documented' };
    const methods = [...matching[0].operations.keys()].map((m) => m.toUpperCase());
    return { kind: 'method-not-documented', template: matching[0].template, methods };
  }

  private route(server: SpecServer, template: string): Route {
    const existing = this.routes[server].find((route) => route.template === template);
    if (existing) return existing;
    const segments = splitPath(template);
    const route = { template, segments, isParam: segments.map(isTemplated), operations: new Map() };
    this.routes[server].push(route);
    return route;
  }
}

function splitPath(p: string): string[] {
  return p.replace(/^\/+/, '').split('/');
}

function isTemplated(segment: string): boolean {
  return /^\{[^}]+\}$/.test(segment);
}

function matches(route: Route, segments: string[]): boolean {
  if (route.segments.length !== segments.length) return false;
  return route.segments.every((literal, i) =>
    route.isParam[i] ? segments[i].length > 0 : literal === segments[i],
  );
}

// Literal segments win over templated ones, compared from the left: /loc/{id}/txid before /loc/{id}/{x}.
function bySpecificity(a: Route, b: Route): number {
  for (let i = 0; i < Math.min(a.isParam.length, b.isParam.length); i++) {
    if (a.isParam[i] !== b.isParam[i]) return a.isParam[i] ? 1 : -1;
  }
  return 0;
}
