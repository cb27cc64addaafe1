import type { Violation } from '../errors';
import { adjustedDueDate, amountDue, calendarFor, compareDates, daysBetween, DISTINCT_LOCAL_CALENDARS, lastDayOfValidity, MAX_WIRE_CENTS, type AmountDue, type DueChargeValue } from '../shared';
import type { CobVContent } from './types';

/** The last date a charge that never expires can be paid (its location serves DPP up to it). */
const FAR_END = '9999-12-31';
/** More than the days a due date or a validity's end can move to reach a business day. */
const DAYS_MOVED = 15;
const PERCENT = 10_000;
/** What rounding half-up to the cent can add to one component. */
const HALF_CENT = 0.5;

/**
 * A charge must be payable on every date it can be paid: each amount due written in the wire
 * form (9999999999.99 at most: juros and multa on a ten-digit original, or a per-day discount
 * over many days, can pass it), and a `final` above zero (discounts and rebates together can
 * take it all: nobody can pay 0.00). Either way its location could serve nothing payable, so it
 * is refused up front. The extremes suffice: discounts are largest on the first date it can be
 * paid (`today`) or on a fixed-date tier's own date, juros and multa on the last payable date.
 * Each payer's calendar moves those dates (a holiday where the payer is moves the due date, and
 * with it days of anticipation or of juros), so every calendar we know is checked: the national
 * one and each state's and municipality's of the built-in table (DISTINCT_LOCAL_CALENDARS).
 */
export function unpayableValor(calendario: CobVContent['calendario'], valor: CobVContent['valor'], today: string): Violation[] {
  // Nearly every charge is far from both limits: bounds in a few multiplications spare it the dates.
  const { upper, lower } = bounds(calendario, valor, today);
  if (upper <= MAX_WIRE_CENTS && lower > 0) return [];
  const found = [undefined, ...DISTINCT_LOCAL_CALENDARS].map((codMun) => limitsFor(calendario, valor, today, codMun));
  const v: Violation[] = [];
  if (found.some((f) => f.overflow))
    v.push({
      razao: `O objeto cobv.valor resulta, em alguma data em que a cobrança pode ser paga, em valores (juros, multa, desconto ou final) maiores que ${MAX_WIRE_CENTS / 100}, o máximo representável.`,
      propriedade: 'cobv.valor',
    });
  const zeroOn = found.find((f) => f.zeroOn !== undefined)?.zeroOn;
  if (zeroOn)
    v.push({
      razao: `O objeto cobv.valor resulta em valor final zero em ${zeroOn}: descontos e abatimento somados alcançam o valor devido, e não há o que pagar.`,
      // The member that takes the amount away: a rebate alone, else the discount.
      propriedade: valor.desconto ? 'cobv.valor.desconto' : 'cobv.valor.abatimento',
    });
  return v;
}

/** For a payer whose calendar is `codMun`'s: whether some payable date overflows the wire form, and the first whose final is zero. */
function limitsFor(calendario: CobVContent['calendario'], valor: CobVContent['valor'], today: string, codMun: string | undefined): { overflow: boolean; zeroOn?: string } {
  const calendar = calendarFor(codMun);
  const due = calendario.dataDeVencimento;
  const validade = calendario.validadeAposVencimento;
  const last = lastDayOfValidity(due, validade, calendar) ?? FAR_END;
  const tiers = valor.desconto?.descontoDataFixa?.map((d) => d.data) ?? [];
  const dates = [today, adjustedDueDate(due, calendar), ...tiers, last].filter((d) => compareDates(d, today) >= 0 && compareDates(d, last) <= 0);
  const at = (paymentDate: string): AmountDue | null | 'overflow' => {
    try {
      return amountDue({ valor: valor as DueChargeValue, dataDeVencimento: due, validadeAposVencimento: validade, paymentDate, ...(codMun ? { codMun } : {}) });
    } catch (error) {
      if (error instanceof RangeError) return 'overflow';
      throw error;
    }
  };
  const amounts = dates.map(at);
  const overflow = amounts.some((a) => a === 'overflow' || (a !== null && (Object.keys(a) as (keyof AmountDue)[]).some((k) => a[k] > MAX_WIRE_CENTS)));
  const zeroOn = dates.find((_, i) => {
    const a = amounts[i];
    return a !== null && a !== 'overflow' && a.final <= 0;
  });
  return { overflow, ...(zeroOn ? { zeroOn } : {}) };
}

/**
 * No component can be larger than `upper`, and `final` is never below `lower`: every rate
 * applied to the whole original for every day from today to past the last payable date.
 * Floating point on purpose (products may pass 2^53); the relative margin covers its rounding,
 * and a bound past a limit only means the exact check runs. amountDue rounds each component
 * half-up to the cent, up to half a cent more than its exact value: absolute margins cover that
 * (on 10.00 a 99.99% rebate is 999.9 cents exactly but 1000 rounded, final zero; relative
 * margins alone passed it).
 */
function bounds(calendario: CobVContent['calendario'], valor: CobVContent['valor'], today: string): { upper: number; lower: number } {
  const days = Math.max(0, daysBetween(today, calendario.dataDeVencimento)) + calendario.validadeAposVencimento + DAYS_MOVED;
  const { original, multa, juros, abatimento, desconto } = valor;
  const part = (valorPerc: number | undefined, isValue: boolean, perDay: boolean) =>
    valorPerc === undefined ? 0 : (isValue ? valorPerc : (original * valorPerc) / PERCENT) * (perDay ? days : 1);
  const multaMax = part(multa?.valorPerc, multa?.modalidade === 1, false);
  const jurosMax = part(juros?.valorPerc, juros?.modalidade === 1 || juros?.modalidade === 5, true);
  const abatimentoMax = part(abatimento?.valorPerc, abatimento?.modalidade === 1, false);
  const descontoMax = !desconto
    ? 0
    : desconto.modalidade >= 3
      ? part(desconto.valorPerc, desconto.modalidade <= 4, true)
      : Math.max(0, ...(desconto.descontoDataFixa ?? []).map((d) => part(d.valorPerc, desconto.modalidade === 1, false)));
  return {
    upper: (original + multaMax + jurosMax + descontoMax + abatimentoMax) * (1 + 1e-9) + HALF_CENT * 4,
    lower: original - (abatimentoMax + descontoMax) * (1 + 1e-9) - HALF_CENT * 2,
  };
}
