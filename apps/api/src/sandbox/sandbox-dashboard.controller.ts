import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Controller, Get, Header, Inject } from '@nestjs/common';
import { LOCAL_RECEBEDOR_ID } from '@pix/domain';
import { Public } from '../auth/auth-context';
import type { AppConfig } from '../config/config';
import { CONFIG, RECEIVER_DIRECTORY } from '../infrastructure/tokens';
import type { ReceiverDirectory } from '../shared/ports';

/**
 * The dashboard's own policy (the API's default is `default-src 'none'`): its script, styles and
 * images from this origin only (QR codes arrive as PNG data URLs), requests to this origin only.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Set by the dashboard on its once-a-second polls (app.js): local mode does not log their successes. */
export const DASHBOARD_POLL_HEADER = 'x-pix-dashboard-poll';

const FILES = { 'index.html': 'text/html; charset=utf-8', 'app.js': 'text/javascript; charset=utf-8', 'style.css': 'text/css; charset=utf-8' } as const;
type UiFile = keyof typeof FILES;

/**
 * The files are shipped as they are, with no build step of their own: next to this folder in the
 * sources, and read from the sources by the compiled app (dist/apps/api/src/sandbox → the repository root).
 */
function uiFolder(): string {
  const candidates = [path.join(__dirname, '..', 'sandbox-ui'), path.join(__dirname, '..', '..', '..', '..', '..', 'apps', 'api', 'src', 'sandbox-ui')];
  const found = candidates.find((dir) => existsSync(path.join(dir, 'index.html')));
  if (!found) throw new Error(`sandbox dashboard files not found (looked in ${candidates.join(', ')})`);
  return found;
}

/**
 * Local mode's dashboard at /sandbox (ADR 13): static files and the sandbox session (the local
 * client's credentials and the receiver), open without a token like the rest of the sandbox. The
 * page is an ordinary client of the API: it gets a token at /oauth/token and calls /v2.
 * Not mounted in production mode.
 */
@Public()
@Controller('sandbox')
export class SandboxDashboardController {
  private readonly files: Record<UiFile, string>;

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(RECEIVER_DIRECTORY) private readonly directory: ReceiverDirectory,
  ) {
    const dir = uiFolder();
    this.files = Object.fromEntries(Object.keys(FILES).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')])) as Record<UiFile, string>;
  }

  @Get()
  @Header('content-type', FILES['index.html'])
  @Header('content-security-policy', DASHBOARD_CSP)
  index(): string {
    return this.files['index.html'];
  }

  @Get('app.js')
  @Header('content-type', FILES['app.js'])
  @Header('content-security-policy', DASHBOARD_CSP)
  script(): string {
    return this.files['app.js'];
  }

  @Get('style.css')
  @Header('content-type', FILES['style.css'])
  @Header('content-security-policy', DASHBOARD_CSP)
  style(): string {
    return this.files['style.css'];
  }

  /** What the page needs to be a client: the local client's credentials, the receiver and its keys. */
  @Get('session')
  async session() {
    const r = await this.directory.recebedor(LOCAL_RECEBEDOR_ID);
    const receiver = r && { nome: r.nome, ...(r.cnpj ? { cnpj: r.cnpj } : {}), ...(r.cpf ? { cpf: r.cpf } : {}), logradouro: r.logradouro, cidade: r.cidade, uf: r.uf, cep: r.cep };
    return {
      clientId: this.config.auth.localClientId,
      clientSecret: this.config.auth.localClientSecret,
      tokenUrl: '/oauth/token',
      basePath: this.config.basePath,
      receiver: receiver ?? null,
      keys: r?.chaves ?? [],
    };
  }
}
