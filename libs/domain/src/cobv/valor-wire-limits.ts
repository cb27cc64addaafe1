import type { Violation } from '../errors';
import { adjustedDueDate, amountDue, compareDates, daysBetween, lastDayOfValidity, MAX_WIRE_CENTS, type AmountDue, type DueChargeValue } from '../shared';
import type { CobVContent } from './types';

/** The latest date the amounts are checked at when the charge never expires before year 9999. */
const FAR_END = '9998-12-31';
/** More than the days a due date or a validity's end can move to reach a business day. */
const DAYS_MOVED = 15;
const PERCENT = 10_000;

/**
 * A charge whose amount due on some payable date cannot be written in the wire form
 * (9999999999.99 at most: juros and multa on a ten-digit original, or a per-day discount over
 * many days) could be created but its location never read: refused up front. The extremes
 * suffice: per-day discounts are largest on the first date it can be paid (`today`), each
 * fixed-date discount on its own date, juros and multa on the last payable date. The national
 * calendar has the fewest holidays, so the most business days: an upper bound for every payer's.
 */
export function wireOverflow(calendario: CobVContent['calendario'], valor: CobVContent['valor'], today: string): Violation[] {
  // Nearly every charge is far from the limit: a bound in a few multiplications spares it the dates.
  if (upperBound(calendario, valor, today) <= MAX_WIRE_CENTS) return [];
  const due = calendario.dataDeVencimento;
  const validade = calendario.validadeAposVencimento;
  const last = lastDayOfValidity(due, validade) ?? FAR_END;
  const tiers = valor.desconto?.descontoDataFixa?.map((d) => d.data) ?? [];
  const dates = [today, adjustedDueDate(due), ...tiers, last].filter((d) => compareDates(d, today) >= 0 && compareDates(d, last) <= 0);
  const fits = (paymentDate: string) => {
    try {
      const amounts = amountDue({ valor: valor as DueChargeValue, dataDeVencimento: due, validadeAposVencimento: validade, paymentDate });
      return amounts === null || (Object.keys(amounts) as (keyof AmountDue)[]).every((k) => amounts[k] <= MAX_WIRE_CENTS);
    } catch (error) {
      if (error instanceof RangeError) return false;
      throw error;
    }
  };
  if (dates.every(fits)) return [];
  return [
    {
      razao: `O objeto cobv.valor resulta, em alguma data em que a cobrança pode ser paga, em valores (juros, multa, desconto ou final) maiores que ${MAX_WIRE_CENTS / 100}, o máximo representável.`,
      propriedade: 'cobv.valor',
    },
  ];
}

/**
 * No component can be larger: every rate applied to the whole original for every day from today
 * to past the last payable date. Floating point on purpose (products may pass 2^53); the margin
 * covers its rounding, and a bound above the limit only means the exact check runs.
 */
function upperBound(calendario: CobVContent['calendario'], valor: CobVContent['valor'], today: string): number {
  const days = Math.max(0, daysBetween(today, calendario.dataDeVencimento)) + calendario.validadeAposVencimento + DAYS_MOVED;
  const { original, multa, juros, desconto } = valor;
  const part = (m: { modalidade: number; valorPerc?: number } | undefined, isValue: boolean, perDay: boolean) =>
    !m || m.valorPerc === undefined ? 0 : (isValue ? m.valorPerc : (original * m.valorPerc) / PERCENT) * (perDay ? days : 1);
  const multaMax = part(multa, multa?.modalidade === 1, false);
  const jurosMax = part(juros, juros?.modalidade === 1 || juros?.modalidade === 5, true);
  const descontoMax = desconto && desconto.modalidade >= 3 ? part(desconto, desconto.modalidade <= 4, true) : 0;
  return (original + multaMax + jurosMax + descontoMax) * (1 + 1e-9);
}
