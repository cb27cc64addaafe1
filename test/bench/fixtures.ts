import { randomUUID } from 'node:crypto';
import { cobvDecider, cobvStreamId, type CobVEvent, type CobVInput, type Recebedor } from '@pix/domain';

/** The production receiver of every bench run, registered through the admin functions before the API starts. */
export const RECEBEDOR: Recebedor = {
  id: 'local',
  nome: 'Empresa de Logistica SA',
  cnpj: '56989000019563',
  logradouro: 'Rua 15 Numero 1200, Bairro Sao Luiz',
  cidade: 'Sao Paulo',
  uf: 'SP',
  cep: '70800100',
  chaves: ['5f84a4c5-c5cb-4599-9f13-7eb4d419dacc'],
};

const day = 86_400_000;
const isoDate = (t: number) => new Date(t).toISOString().slice(0, 10);

/** A valid PUT /cobv body (the README's example, with a debtor address), due in 30 days. */
export function putBody(): Record<string, unknown> {
  return {
    calendario: { dataDeVencimento: isoDate(Date.now() + 30 * day), validadeAposVencimento: 30 },
    devedor: { cpf: '12345678909', nome: 'Francisco da Silva', logradouro: 'Alameda Souza, Numero 80', cidade: 'Recife', uf: 'PE', cep: '70011750' },
    valor: { original: '123.45', multa: { modalidade: 2, valorPerc: '15.00' }, juros: { modalidade: 2, valorPerc: '2.00' } },
    chave: RECEBEDOR.chaves[0],
    solicitacaoPagador: 'Cobrança dos serviços prestados.',
  };
}

/** Txids of the contract's shape ([a-zA-Z0-9]{26,35}), unique per (prefix, counter). */
export function txidFactory(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}${(n++).toString(36).padStart(30 - prefix.length, '0')}`;
}

/** Short alphanumeric run tag, so txids of different phases never collide. */
export const runTag = () => Date.now().toString(36).slice(-6);

export interface SeedEvent {
  streamId: string;
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/**
 * `count` CobVCriada events exactly as the app's PUT would record them: each decided by the
 * domain's own decider from a valid body, with creation instants spread evenly over the
 * `spanDays` before `end`, and location ids 1..count.
 */
export function seedEvents(count: number, end: number, spanDays: number, host: string): { events: SeedEvent[]; txids: string[] } {
  const input = putBody() as unknown as CobVInput;
  (input.calendario as { dataDeVencimento: string }).dataDeVencimento = isoDate(end + 60 * day);
  const next = txidFactory('seed');
  const events: SeedEvent[] = [];
  const txids: string[] = [];
  const step = (spanDays * day) / count;
  for (let i = 0; i < count; i++) {
    const txid = next();
    const now = new Date(Math.round(end - spanDays * day + i * step));
    const decided: CobVEvent[] = cobvDecider.decide(
      { type: 'CriarOuAlterarCobV', txid, input, now, recebedor: RECEBEDOR, novaLocation: { id: i + 1, location: `https://${host}/qr/v2/cobv/${randomUUID().replace(/-/g, '')}` } },
      cobvDecider.initialState,
    );
    for (const e of decided) events.push({ streamId: cobvStreamId(RECEBEDOR.id, txid), id: randomUUID(), type: e.type, data: e.data as unknown as Record<string, unknown> });
    txids.push(txid);
  }
  return { events, txids };
}

/** One CobVCriada event's data, as a realistic payload for the append benchmarks. */
export function sampleEventData(): Record<string, unknown> {
  return seedEvents(1, Date.now(), 1, 'localhost:8080').events[0].data;
}
