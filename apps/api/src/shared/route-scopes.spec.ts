import 'reflect-metadata';
import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { loadRawOfficialSpec } from '@pix/testing';
import { PUBLIC_KEY, SCOPES_KEY } from '../auth/auth-context';
import { CobVModule } from '../cobv/cobv.module';
import { HealthController } from '../health/health.controller';
import { LocModule } from '../loc/loc.module';
import { LoteCobVModule } from '../lotecobv/lotecobv.module';
import { CashInModule } from '../messaging/cash-in.module';
import { PayloadModule } from '../payload/payload.module';
import { WebhookModule } from '../webhook/webhook.module';

interface Route {
  verb: string;
  path: string;
  scopes?: string[];
  public: boolean;
}

const controllersOf = (module: Type<unknown>): Type<unknown>[] => Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? [];
const join = (...parts: string[]) => `/${parts.flatMap((p) => p.split('/')).filter(Boolean).join('/')}`;

/** Every route a controller declares, with what it says about access. */
function routesOf(controller: Type<unknown>): Route[] {
  const base: string = Reflect.getMetadata(PATH_METADATA, controller);
  const classPublic = Reflect.getMetadata(PUBLIC_KEY, controller) === true;
  const routes: Route[] = [];
  for (let proto = controller.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto))
    for (const name of Object.getOwnPropertyNames(proto)) {
      const handler = proto[name];
      if (name === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
      routes.push({
        verb: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod],
        path: join(base, Reflect.getMetadata(PATH_METADATA, handler)),
        scopes: Reflect.getMetadata(SCOPES_KEY, handler),
        public: classPublic || Reflect.getMetadata(PUBLIC_KEY, handler) === true,
      });
    }
  return routes;
}

const cashIn = CashInModule.forRoot(true);
const controllers = [...[CobVModule, LocModule, LoteCobVModule, WebhookModule, PayloadModule].flatMap(controllersOf), ...(cashIn.controllers ?? []), HealthController];
const routes = controllers.flatMap(routesOf);
/** Routes outside the contract, served only in local mode or for operators: open without a token. */
const isOperatorRoute = (r: Route) => /^\/(health|sandbox|notifier)(\/|$)/.test(r.path);
/** Our own endpoints beyond the contract (the README documents them), with the scopes they require. */
const EXTENSION_ROUTES: Record<string, string[]> = { 'GET /cobv/:txid/qrcode': ['cobv.read'] };
const isExtensionRoute = (r: Route) => `${r.verb} ${r.path}` in EXTENSION_ROUTES;
/** Payload locations on the location host's /qr/v2 (the contract's open /cobv/{pixUrlAccessToken}) and the JWKS their jku names. */
const isLocationRoute = (r: Route) => r.path.startsWith('/qr/v2/');
const isContractRoute = (r: Route) => !isOperatorRoute(r) && !isExtensionRoute(r) && !isLocationRoute(r);

describe('every route declares its access', () => {
  const spec = loadRawOfficialSpec();

  it('finds the routes of every module (the check below is not vacuous)', () => {
    expect(routes.filter(isContractRoute).length).toBe(18);
    expect(routes.filter((r) => isExtensionRoute(r) || isLocationRoute(r)).map((r) => `${r.verb} ${r.path}`).sort()).toEqual(['GET /cobv/:txid/qrcode', 'GET /qr/v2/cobv/:pixUrlAccessToken', 'GET /qr/v2/jwks']);
    expect(routes.filter(isOperatorRoute).map((r) => r.path)).toEqual(expect.arrayContaining(['/health', '/sandbox/cash-in', '/notifier/stats']));
  });

  it.each(routes.filter(isContractRoute).map((r) => [`${r.verb} ${r.path}`, r] as const))('%s requires exactly the scopes of the official security block', (_name, route) => {
    const operation = spec.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.verb.toLowerCase()] as { security?: Record<string, string[]>[] } | undefined;
    expect(operation).toBeDefined();
    expect(route.public).toBe(false);
    expect(route.scopes).toEqual(operation!.security!.flatMap((s) => s.OAuth2 ?? []));
  });

  it.each(routes.filter(isOperatorRoute).map((r) => [`${r.verb} ${r.path}`, r] as const))('%s is public and asks for no scope', (_name, route) => {
    expect({ public: route.public, scopes: route.scopes }).toEqual({ public: true, scopes: undefined });
  });

  it.each(routes.filter(isExtensionRoute).map((r) => [`${r.verb} ${r.path}`, r] as const))('%s (ours) requires exactly its declared scopes', (name, route) => {
    expect({ public: route.public, scopes: route.scopes }).toEqual({ public: false, scopes: EXTENSION_ROUTES[name] });
  });

  it.each(routes.filter(isLocationRoute).map((r) => [`${r.verb} ${r.path}`, r] as const))('%s is open, as the contract’s payload locations (security: [])', (_name, route) => {
    expect({ public: route.public, scopes: route.scopes }).toEqual({ public: true, scopes: undefined });
    const operation = spec.paths[route.path.replace(/^\/qr\/v2/, '').replace(/:(\w+)/g, '{$1}')]?.get as { security?: unknown[] } | undefined;
    if (route.path.startsWith('/qr/v2/cobv/')) expect(operation?.security).toEqual([]);
  });
});
