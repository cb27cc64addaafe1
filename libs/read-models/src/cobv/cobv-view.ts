import { buildDynamicBrCode, payloadLocation, toOfficialPix, valorToWire } from '@pix/domain';
import type { CobVCompleta } from '@pix/contracts';
import type { CobVRow } from './cobv-projection';

/** The official `CobVCompleta` wire form of a charge row (amounts back to "123.45" strings). */
export function toCobVCompleta(row: CobVRow): CobVCompleta {
  const c = row.cobranca;
  // The tenant id and key list are ours, not the contract's.
  const { chaves: _k, id: _id, ...recebedor } = row.recebedor as CobVRow['recebedor'] & { chaves?: string[]; id?: string };
  // The same scheme-less string as the BR Code's field 26/25, also for rows stored with https://.
  // A charge unlinked from its location (DELETE /loc/{id}/txid) has none, and so no BR Code (ADR 12).
  const location = row.loc ? payloadLocation(row.loc.location) : undefined;
  const view = {
    calendario: { criacao: row.criacao, dataDeVencimento: c.calendario.dataDeVencimento, validadeAposVencimento: c.calendario.validadeAposVencimento },
    txid: row.txid,
    revisao: row.revisao,
    loc: row.loc && { id: row.loc.id, location, tipoCob: 'cobv', criacao: row.loc.criacao, txid: row.txid },
    location,
    status: row.status,
    devedor: c.devedor,
    recebedor,
    // The domain writes its content back in wire form (amounts as "123.45") for PATCH merges.
    valor: valorToWire(c.valor),
    chave: c.chave,
    solicitacaoPagador: c.solicitacaoPagador,
    infoAdicionais: c.infoAdicionais,
    pix: row.pix?.map(toOfficialPix),
    pixCopiaECola: location && buildDynamicBrCode({ location, merchantName: row.recebedor.nome, merchantCity: row.recebedor.cidade }),
  };
  // Absent optionals stay `undefined`, which JSON leaves out (the schema allows no nulls there);
  // every caller answers this view as JSON. Copying it without them was ~2% of a GET's CPU.
  return view as CobVCompleta;
}
