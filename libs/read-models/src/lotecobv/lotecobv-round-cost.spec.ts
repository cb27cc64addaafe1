import { lotecobvStreamId, type LoteCobVEvent } from '@pix/domain';
import type { RecordedEvent } from '@pix/event-store';
import { InlineProjections } from '../inline';
import type { Projection } from '../projection';
import { solicitacaoLoteProjection, type SolicitacaoLoteRow } from './lotecobv-projection';

/**
 * A round names every request of its batch (up to 1,000). Planning an append of a round asked
 * each event for its keys once per key, and found each request's position by scanning the round:
 * a million steps per round event at every append that folded it. Twenty re-sent batches of
 * 1,000 held the API's thread for up to a second at a time (/health/live 1,044 ms). Counted here
 * in steps, not timed: the work must grow with the round, not with its square.
 */
const N = 1000;
const em = '2026-11-27T12:00:00.000Z';
const stream = lotecobvStreamId('local', '9');

/** Requests whose `txid` reads are counted. */
function counted(rodada: number) {
  const reads = { n: 0 };
  const solicitacoes = Array.from({ length: N }, (_, i) => {
    const txid = `tx${String(i).padStart(6, '0')}`;
    const request = { corpo: { valor: { original: `${rodada}.00` } } as Record<string, unknown> };
    return Object.defineProperty(request, 'txid', { enumerable: true, get: () => ((reads.n += 1), txid) }) as typeof request & { txid: string };
  });
  return { reads, solicitacoes };
}

const recorded = (event: LoteCobVEvent, n: number): RecordedEvent => ({ id: `e${n}`, streamId: stream, revision: BigInt(n), position: String(n), recordedAt: new Date(em), metadata: {}, ...event }) as unknown as RecordedEvent;

describe('rm_lotecobv_solicitacao: planning an append of a round of 1,000 requests', () => {
  it('asks each event for its keys once, and reads each request of a round a bounded number of times', async () => {
    let keyOfCalls = 0;
    const projection: Projection<SolicitacaoLoteRow, LoteCobVEvent> = { ...solicitacaoLoteProjection, keyOf: (e) => ((keyOfCalls += 1), solicitacaoLoteProjection.keyOf(e)) };
    const created = counted(0);
    const altered = counted(1);
    const prior = [recorded({ type: 'LoteCobVCriado', data: { id: '9', descricao: 'd', criacao: em, solicitacoes: created.solicitacoes } }, 0)];
    const event = { id: 'e1', streamId: stream, type: 'LoteCobVAlterado', data: { id: '9', rodada: 1, via: 'ALTERACAO_PUT', em, solicitacoes: altered.solicitacoes }, metadata: {} };

    const writes = await new InlineProjections([projection]).plan({ streamId: stream, events: [event], prior, optimistic: true, read: async () => new Map() });

    const rows = writes[0].rows;
    expect(rows).toHaveLength(N);
    expect(rows[N - 1].doc).toMatchObject({ txid: `tx${String(N - 1).padStart(6, '0')}`, posicao: N - 1, rodada: 0, fila: [{ rodada: 1, corpo: { valor: { original: '1.00' } } }] });
    // Once per event (the new one, the prior one); it was once per key per event: 1,000 more.
    expect(keyOfCalls).toBeLessThanOrEqual(2);
    // Its keys, its position map: a few reads per request; the scan was ~N / 2 per request.
    expect(created.reads.n).toBeLessThanOrEqual(5 * N);
    expect(altered.reads.n).toBeLessThanOrEqual(5 * N);
  });
});
