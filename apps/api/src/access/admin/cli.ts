import Table from 'cli-table3';
import { parseArgs } from 'node:util';
import { isDomainError, PIX_SCOPES, type DadosRecebedor, type Recebedor } from '@pix/domain';
import type { AccessContext } from '../access-streams';
import { addKey, createClient, createReceiver, disableClient, listClients, listReceivers, removeKey, rotateClientSecret, setClientScopes } from './operations';

export const USAGE = `usage: npm run admin -- <command> [options]

  receiver create --id <id> --name <name> (--cnpj <cnpj> | --cpf <cpf>) [--trade-name <name>]
                  --street <street> --city <city> --uf <UF> --cep <8 digits> [--key <pix key>]...
  receiver list
  key add     --receiver <id> --key <pix key>
  key remove  --receiver <id> --key <pix key>   (also removes the receiver's ATIVA charges on the key)
  client create --receiver <id> [--id <client id>] [--scopes <scope,scope,...>]
  client rotate-secret --id <client id>
  client scopes --id <client id> --scopes <scope,scope,...>
  client disable --id <client id>   (for good: create a new client to restore access)
  client list

Scopes: ${PIX_SCOPES.join(', ')} (default: all).
A client's secret is printed once, when created or rotated; only its hash is stored.
Changes reach running API instances within AUTH_CACHE_MS.`;

/** Exit codes: what went right, what the rules refused, what was asked wrongly. */
export const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

class UsageError extends Error {}

const OPTIONS = {
  id: { type: 'string' },
  name: { type: 'string' },
  cnpj: { type: 'string' },
  cpf: { type: 'string' },
  'trade-name': { type: 'string' },
  street: { type: 'string' },
  city: { type: 'string' },
  uf: { type: 'string' },
  cep: { type: 'string' },
  receiver: { type: 'string' },
  key: { type: 'string', multiple: true },
  scopes: { type: 'string' },
} as const;

/**
 * Runs one admin command against the event store; prints with `out` (results) and `err`
 * (refusals, usage). Never throws for a refusal or a usage mistake: returns the exit code.
 */
export async function runAdmin(argv: string[], ctx: AccessContext, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    const command = positionals.join(' ');
    const need = (name: Exclude<keyof typeof OPTIONS, 'key'>): string => {
      const v = values[name];
      if (typeof v !== 'string' || v === '') throw new UsageError(`${command}: --${name} is required`);
      return v;
    };
    switch (command) {
      case 'receiver create': {
        const dados: DadosRecebedor = {
          nome: need('name'),
          ...(values.cpf !== undefined ? { cpf: values.cpf } : {}),
          ...(values.cnpj !== undefined ? { cnpj: values.cnpj.toUpperCase() } : {}),
          ...(values['trade-name'] ? { nomeFantasia: values['trade-name'] } : {}),
          logradouro: need('street'),
          cidade: need('city'),
          uf: need('uf'),
          cep: need('cep'),
        };
        const id = need('id');
        out(`receiver ${describe(await createReceiver(ctx, id, dados, values.key ?? []))}`);
        return EXIT.ok;
      }
      case 'receiver list':
        out(table(['id', 'nome', 'documento', 'cidade', 'chaves Pix'], (await listReceivers(ctx)).map((r) => [r.id, r.nomeFantasia ? `${r.nome} (${r.nomeFantasia})` : r.nome, r.cnpj ? `CNPJ ${r.cnpj}` : `CPF ${r.cpf}`, `${r.cidade}-${r.uf}`, r.chaves.join('\n') || '(none)'])));
        return EXIT.ok;
      case 'key add': {
        if (values.key?.length !== 1) throw new UsageError(`${command}: give exactly one --key`);
        const [chave] = values.key;
        out(`linked ${chave}; receiver ${describe(await addKey(ctx, need('receiver'), chave))}`);
        return EXIT.ok;
      }
      case 'key remove': {
        if (values.key?.length !== 1) throw new UsageError(`${command}: give exactly one --key`);
        const [chave] = values.key;
        const charges = ctx.charges;
        // The key's charges are found in the charge read model, on PostgreSQL.
        if (!charges) throw new UsageError(`${command}: needs DATABASE_URL (the API's read models), where the key's charges are found`);
        const r = await removeKey({ ...ctx, charges }, need('receiver'), chave);
        out(r.jaDesvinculada ? `${chave} was already unlinked from ${r.id}; its charges swept again` : `unlinked ${chave}; receiver ${describe(r)}`);
        out(`  its ATIVA charges removed (REMOVIDA_PELO_PSP): ${r.cobrancasRemovidas}`);
        if (r.notificacoesCanceladas !== undefined) out(`  its notifications retired: ${r.notificacoesCanceladas} pending cancelled, none can be resent`);
        return EXIT.ok;
      }
      case 'client create': {
        const scopes = values.scopes?.split(',').map((s) => s.trim()).filter(Boolean);
        const c = await createClient(ctx, { recebedorId: need('receiver'), clientId: values.id, scopes });
        out(`client created for receiver ${c.recebedorId}`);
        out(`  client_id:     ${c.clientId}`);
        out(`  client_secret: ${c.secret}`);
        out(`  scopes:        ${c.scopes.join(' ')}`);
        out('The secret is shown only now: store it safely (only its hash is kept).');
        return EXIT.ok;
      }
      case 'client rotate-secret': {
        const c = await rotateClientSecret(ctx, need('id'));
        out(`client ${c.clientId}: new secret (generation ${c.generation}); tokens issued before stop working within AUTH_CACHE_MS`);
        out(`  client_secret: ${c.secret}`);
        return EXIT.ok;
      }
      case 'client scopes': {
        const scopes = await setClientScopes(ctx, need('id'), need('scopes').split(',').map((x) => x.trim()).filter(Boolean));
        out(`client ${need('id')}: scopes ${scopes.join(' ')}; tokens lose removed scopes within AUTH_CACHE_MS`);
        return EXIT.ok;
      }
      case 'client disable':
        await disableClient(ctx, need('id'));
        out(`client ${need('id')} disabled; its tokens stop working within AUTH_CACHE_MS`);
        return EXIT.ok;
      case 'client list':
        out(table(['client_id', 'receiver', 'status', 'generation', 'scopes'], (await listClients(ctx)).map((c) => [c.clientId, c.recebedorId, c.enabled ? 'enabled' : 'DISABLED', String(c.generation), c.scopes.join(' ')])));
        return EXIT.ok;
      default:
        throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
    }
  } catch (error) {
    if (isDomainError(error)) {
      err(`refused (${error.kind}): ${error.detail}`);
      return EXIT.refused;
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      err(`${(error as Error).message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    throw error;
  }
}

function describe(r: Recebedor): string {
  const doc = r.cnpj ? `CNPJ ${r.cnpj}` : `CPF ${r.cpf}`;
  return `${r.id}: ${r.nome}${r.nomeFantasia ? ` (${r.nomeFantasia})` : ''}, ${doc}, ${r.logradouro}, ${r.cidade}-${r.uf}, CEP ${r.cep}; keys: ${r.chaves.length > 0 ? r.chaves.join(', ') : '(none)'}`;
}

/** A list as a table (cli-table3), without colour codes: the output may go to a file. */
function table(head: string[], rows: string[][]): string {
  const t = new Table({ head, style: { head: [], border: [] } });
  t.push(...rows);
  return t.toString();
}
