// The payer's "today" for a payment date (DPP). Brazil spans four UTC offsets: for an hour or two
// after midnight in Brasília, a payer in Acre or Amazonas still lives the day before, and their
// bank asks for that day. The state comes from codMun's first two digits (the contract: "os dois
// primeiros referentes ao código da Unidade da Federação").
import { businessDateOf, compareDates, DEFAULT_BUSINESS_TIME_ZONE } from './dates';

/** IANA zones of the states not wholly on Brasília time; the first is where most people live. */
const ZONES_BY_STATE: Readonly<Record<string, readonly string[]>> = {
  '11': ['America/Porto_Velho'], // Rondônia, UTC−4
  '12': ['America/Rio_Branco'], // Acre, UTC−5
  '13': ['America/Manaus', 'America/Eirunepe'], // Amazonas: UTC−4, its south-west UTC−5
  '14': ['America/Boa_Vista'], // Roraima, UTC−4
  '26': ['America/Recife', 'America/Noronha'], // Pernambuco: UTC−3, Fernando de Noronha UTC−2
  '50': ['America/Campo_Grande'], // Mato Grosso do Sul, UTC−4
  '51': ['America/Cuiaba'], // Mato Grosso, UTC−4
};
const EVERY_ZONE = [DEFAULT_BUSINESS_TIME_ZONE, ...new Set(Object.values(ZONES_BY_STATE).flat())];

const zonesOf = (codMun?: string): readonly string[] =>
  codMun === undefined ? EVERY_ZONE : (Object.prototype.hasOwnProperty.call(ZONES_BY_STATE, codMun.slice(0, 2)) ? ZONES_BY_STATE[codMun.slice(0, 2)] : [DEFAULT_BUSINESS_TIME_ZONE]);

/**
 * The dates a payment made at `now` can carry. `today`: the civil date where the payer most
 * likely is (codMun's state, else Brasília), the DPP when the bank sends none. `earliest`: the
 * earliest civil date anywhere the payer may be (codMun's state, else all of Brazil); a DPP
 * before it is "anterior ao momento presente" for every such payer.
 */
export function payerDates(now: Date, codMun?: string): { today: string; earliest: string } {
  const zones = zonesOf(codMun);
  const dates = zones.map((zone) => businessDateOf(now, zone));
  return { today: dates[0], earliest: dates.reduce((a, b) => (compareDates(b, a) < 0 ? b : a)) };
}
