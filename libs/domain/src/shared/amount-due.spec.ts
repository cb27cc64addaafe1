import { adjustedDueDate, amountDue, AmountDueInput, DueChargeValue, lastDayOfValidity } from './amount-due';
import { calendarFor } from './business-days';

// March 2025: Sat 1, Sun 2, Mon 3 + Tue 4 Carnival (bank holidays), Wed 5 … Fri 7, Sat 8, Sun 9,
// Mon 10, … Fri 14, Sat 15, Sun 16, Mon 17, … Fri 21, Mon 24, … Mon 31. April: Fri 18 Good Friday,
// Mon 21 Tiradentes. R$ 100.00 unless said otherwise; amounts in cents, percentages in hundredths.
const DUE = '2025-03-10'; // a Monday, a business day: V* = DUE
const due = (valor: Partial<DueChargeValue>, paymentDate: string, validadeAposVencimento?: number) =>
  amountDue({ valor: { original: 10000, ...valor }, dataDeVencimento: DUE, paymentDate, validadeAposVencimento });

describe('amountDue: every modality against hand arithmetic (Vo = R$ 1000.00)', () => {
  const VO = 100000;
  const abat1 = { modalidade: 1 as const, valorPerc: 10000 }; // R$ 100.00 fixed → Vo − Va = 90000
  const row = (dataDeVencimento: string, paymentDate: string, valor: Partial<DueChargeValue>, validadeAposVencimento?: number, codMun?: string) =>
    amountDue({ valor: { original: VO, ...valor }, dataDeVencimento, paymentDate, validadeAposVencimento, codMun });

  it.each<[string, string, string, Partial<DueChargeValue>, Record<string, number> | null]>([
    // --- before the due date: discounts ---
    // desconto 3, R$ 0.50 per calendar day early: Mar 5 → Mar 10 = 5 days; 50 × 5 = 250; 100000 − 250
    ['desconto 3, 5 days early', DUE, '2025-03-05', { desconto: { modalidade: 3, valorPerc: 50 } }, { desconto: 250, final: 99750 }],
    // desconto 4, R$ 0.50 per business day early, paid Sat Mar 1: business days in [Mar 1, Mar 10) =
    // Wed 5, Thu 6, Fri 7 (Sat/Sun, Carnival Mon 3/Tue 4 are not) = 3; 50 × 3 = 150; 100000 − 150
    ['desconto 4 across Carnival', DUE, '2025-03-01', { desconto: { modalidade: 4, valorPerc: 50 } }, { desconto: 150, final: 99850 }],
    // desconto 5, 0.10% per calendar day on Vo − Va: 3 days (Fri 7 → Mon 10); 90000 × 0.001 × 3 = 270;
    // 100000 − 10000 − 270 = 89730
    ['desconto 5 + abatimento 1', DUE, '2025-03-07', { abatimento: abat1, desconto: { modalidade: 5, valorPerc: 10 } }, { abatimento: 10000, desconto: 270, final: 89730 }],
    // desconto 6, 0.10% per business day; abatimento 2 = 10% of Vo = 10000 → base 90000; paid Fri Feb 28:
    // [Feb 28, Mar 10) holds Fri 28, Wed 5, Thu 6, Fri 7 = 4; 90000 × 0.001 × 4 = 360; 100000 − 10000 − 360
    ['desconto 6 + abatimento 2', DUE, '2025-02-28', { abatimento: { modalidade: 2, valorPerc: 1000 }, desconto: { modalidade: 6, valorPerc: 10 } }, { abatimento: 10000, desconto: 360, final: 89640 }],
    // --- on the due date: fixed-date discount, no multa/juros ---
    // desconto 2, 2% until Mar 10 on 90000 = 1800; multa/juros not due yet; 100000 − 10000 − 1800 = 88200
    ['desconto 2 on the due date', DUE, DUE, { abatimento: abat1, desconto: { modalidade: 2, descontoDataFixa: [{ data: DUE, valorPerc: 200 }] }, multa: { modalidade: 2, valorPerc: 200 }, juros: { modalidade: 2, valorPerc: 100 } },
      { abatimento: 10000, desconto: 1800, multa: 0, juros: 0, final: 88200 }],
    // --- after the due date: multa and juros ---
    // multa 1 R$ 5.00; juros 1 R$ 0.35 per calendar day, Mar 10 → Mar 17 = 7 days: 35 × 7 = 245; 100000 + 500 + 245
    ['multa 1 + juros 1', DUE, '2025-03-17', { multa: { modalidade: 1, valorPerc: 500 }, juros: { modalidade: 1, valorPerc: 35 } }, { multa: 500, juros: 245, final: 100745 }],
    // multa 2 = 2% of 90000 = 1800; juros 2 0.10%/day × 3 days (Mar 13) of 90000 = 270 (Equação 11);
    // 100000 − 10000 + 1800 + 270 = 92070
    ['multa 2 + juros 2 on Vo − Va', DUE, '2025-03-13', { abatimento: abat1, multa: { modalidade: 2, valorPerc: 200 }, juros: { modalidade: 2, valorPerc: 10 } }, { abatimento: 10000, multa: 1800, juros: 270, final: 92070 }],
    // juros 3, 1%/month (n = 30), abatimento 2 = 5% → base 95000; 30 days (Apr 9, last valid day):
    // 95000 × 0.01 / 30 × 30 = 950; 100000 − 5000 + 950 = 95950
    ['juros 3 + abatimento 2, last valid day', DUE, '2025-04-09', { abatimento: { modalidade: 2, valorPerc: 500 }, juros: { modalidade: 3, valorPerc: 100 } }, { abatimento: 5000, juros: 950, final: 95950 }],
    // juros 4, 12%/year (n = 365), paid Sun Mar 30 = 20 days: 100000 × 0.12 × 20 / 365 = 657.53… → 658
    ['juros 4, rounded half-up', DUE, '2025-03-30', { juros: { modalidade: 4, valorPerc: 1200 } }, { juros: 658, final: 100658 }],
    // juros 5, R$ 0.40 per business day, paid Sun Mar 16: (Mar 10, Mar 16] = Tue–Fri = 4 → 160;
    // multa 1 R$ 5.00 (late: Mar 16 > V*); 100000 + 500 + 160 = 100660
    ['juros 5 + multa 1, paid on a Sunday', DUE, '2025-03-16', { multa: { modalidade: 1, valorPerc: 500 }, juros: { modalidade: 5, valorPerc: 40 } }, { multa: 500, juros: 160, final: 100660 }],
    // juros 6, 0.5% per business day, due Thu Apr 17, paid Tue Apr 22: (Apr 17, Apr 22] skips Good
    // Friday, the weekend and Tiradentes → 1 day; 100000 × 0.005 = 500
    ['juros 6 over Easter', '2025-04-17', '2025-04-22', { juros: { modalidade: 6, valorPerc: 50 } }, { juros: 500, final: 100500 }],
    // juros 7, 2.10%/month on business days (n = 21), paid Mon Mar 24: 11–14, 17–21, 24 = 10 days;
    // 100000 × 0.021 / 21 × 10 = 1000
    ['juros 7', DUE, '2025-03-24', { juros: { modalidade: 7, valorPerc: 210 } }, { juros: 1000, final: 101000 }],
    // juros 8, 25.20%/year on business days (n = 252), 10 days, base 90000: 90000 × 0.252 / 252 × 10 = 900;
    // 100000 − 10000 + 900 = 90900
    ['juros 8 + abatimento 1', DUE, '2025-03-24', { abatimento: abat1, juros: { modalidade: 8, valorPerc: 2520 } }, { abatimento: 10000, juros: 900, final: 90900 }],
    // --- due on a non-business day ---
    // due Sat Mar 8 → V* Mon Mar 10; paid Mon: not late, no multa (2%), no juros (R$ 1.00/day)
    ['due Saturday, paid next business day', '2025-03-08', DUE, { multa: { modalidade: 2, valorPerc: 200 }, juros: { modalidade: 1, valorPerc: 100 } }, { multa: 0, juros: 0, final: 100000 }],
    // same charge paid Tue Mar 11: Dα counts from V*, 1 day → juros 100; multa 2% of 100000 = 2000
    ['due Saturday, paid the day after', '2025-03-08', '2025-03-11', { multa: { modalidade: 2, valorPerc: 200 }, juros: { modalidade: 1, valorPerc: 100 } }, { multa: 2000, juros: 100, final: 102100 }],
    // due on Carnival Monday Mar 3 → V* Wed Mar 5: paid Wed → nothing added
    ['due on Carnival, paid Ash Wednesday', '2025-03-03', '2025-03-05', { multa: { modalidade: 1, valorPerc: 1000 }, juros: { modalidade: 2, valorPerc: 100 } }, { multa: 0, juros: 0, final: 100000 }],
    // --- past validity ---
    // V* + 30 = Apr 9 (a Wednesday, a business day): Apr 10 cannot be paid
    ['past validity', DUE, '2025-04-10', { multa: { modalidade: 1, valorPerc: 500 } }, null],
  ])('%s', (_name, dataDeVencimento, paymentDate, valor, expected) => {
    const r = row(dataDeVencimento, paymentDate, valor);
    if (expected === null) expect(r).toBeNull();
    else expect(r).toEqual({ original: VO, multa: 0, juros: 0, abatimento: 0, desconto: 0, ...expected });
  });

  describe('penalties start on the first business day after V* (none on the days between)', () => {
    const valor = { multa: { modalidade: 1 as const, valorPerc: 500 }, juros: { modalidade: 1 as const, valorPerc: 100 }, desconto: { modalidade: 3 as const, valorPerc: 10 } };
    const business = { ...valor, juros: { modalidade: 5 as const, valorPerc: 100 } };
    it.each<[string, string, string, Partial<DueChargeValue>, Record<string, number>]>([
      // due Fri Mar 14: Sat 15 and Sun 16 are neither early (no discount) nor late (no multa, no juros)
      ['Fri → Sat', '2025-03-14', '2025-03-15', valor, { final: VO }],
      ['Fri → Sun, business-day juros', '2025-03-14', '2025-03-16', business, { final: VO }],
      // Mon Mar 17 is S: multa, and Dα still counts from V* (3 calendar days, 1 business day)
      ['Fri → Mon', '2025-03-14', '2025-03-17', valor, { multa: 500, juros: 300, final: VO + 800 }],
      ['Fri → Mon, business-day juros', '2025-03-14', '2025-03-17', business, { multa: 500, juros: 100, final: VO + 600 }],
      // due Thu Apr 17: Good Friday, the weekend and Tiradentes (Mon 21) pass without penalties; S = Tue 22
      ['Thu → Tiradentes', '2025-04-17', '2025-04-21', valor, { final: VO }],
      ['Thu → Tue after Tiradentes', '2025-04-17', '2025-04-22', valor, { multa: 500, juros: 500, final: VO + 1000 }],
    ])('%s', (_name, dataDeVencimento, paymentDate, v, expected) => {
      expect(row(dataDeVencimento, paymentDate, v)).toEqual({ original: VO, multa: 0, juros: 0, abatimento: 0, desconto: 0, ...expected });
    });
  });

  it('uses the payer municipality (codMun) for the due date', () => {
    // Jul 9 2025 (Wed) is a state holiday in São Paulo only. multa 2% of 100000 = 2000.
    const valor = { multa: { modalidade: 2 as const, valorPerc: 200 } };
    expect(row('2025-07-09', '2025-07-10', valor, undefined, '3550308')).toMatchObject({ multa: 0, final: 100000 });
    expect(row('2025-07-09', '2025-07-10', valor)).toMatchObject({ multa: 2000, final: 102000 });
    expect(() => row(DUE, DUE, valor, undefined, '35503')).toThrow(RangeError);
  });

  it('reads bacen/pix-api #607 with an unrounded factor: R$ 30000 at 1%/month, 1 day late = R$ 10.00', () => {
    // 3000000 × (1/100/30) × 1 = 1000 cents exactly (a factor truncated to 0.00033 would give 990).
    const r = amountDue({ valor: { original: 3000000, juros: { modalidade: 3, valorPerc: 100 } }, dataDeVencimento: '2024-09-04', paymentDate: '2024-09-05' });
    expect(r).toMatchObject({ juros: 1000, final: 3001000 });
  });
});

describe('amountDue: validity window', () => {
  it('is the original on, before and after the due date while valid', () => {
    for (const day of ['2025-01-01', '2025-03-09', DUE, '2025-03-11', '2025-04-09']) {
      expect(due({}, day)).toEqual({ original: 10000, multa: 0, juros: 0, abatimento: 0, desconto: 0, final: 10000 });
    }
  });

  it('defaults validadeAposVencimento to 30 days', () => {
    expect(due({}, '2025-04-09')).not.toBeNull();
    expect(due({}, '2025-04-10')).toBeNull();
  });

  it('moves a last day of validity that is not a business day to the next one (contract example A)', () => {
    // Mar 10 + 5 = Sat Mar 15 → Mon Mar 17. Before, Mar 16 was already refused.
    expect(due({}, '2025-03-17', 5)).not.toBeNull();
    expect(due({}, '2025-03-18', 5)).toBeNull();
    expect(due({}, DUE, 0)).not.toBeNull();
    expect(due({}, '2025-03-11', 0)).toBeNull();
  });

  it('counts validity from the adjusted due date (contract examples B–E, Christmas 2020)', () => {
    const christmas = (validade: number) => lastDayOfValidity('2020-12-25', validade);
    expect(adjustedDueDate('2020-12-25')).toBe('2020-12-28');
    expect([0, 1, 3, 4].map(christmas)).toEqual(['2020-12-28', '2020-12-29', '2020-12-31', '2021-01-04']);
    expect(lastDayOfValidity('2021-08-28', 5)).toBe('2021-09-06'); // example G
    expect(lastDayOfValidity('2021-08-27', 5)).toBe('2021-09-01'); // example F
  });

  it('never expires when the last day would lie beyond year 9999', () => {
    expect(lastDayOfValidity(DUE, 2_000_000_000)).toBeNull();
    expect(due({}, '9999-12-31', 2_000_000_000)).not.toBeNull();
  });
});

describe('amountDue: multa and juros (only after the adjusted due date)', () => {
  it('charges multa once, whatever the delay', () => {
    const multaPct = { modalidade: 2 as const, valorPerc: 200 };
    expect(due({ multa: multaPct }, '2025-03-11')).toMatchObject({ multa: 200, final: 10200 });
    expect(due({ multa: multaPct }, '2025-04-09')).toMatchObject({ multa: 200, final: 10200 });
  });

  it.each([
    // [modalidade, valorPerc, paymentDate, expected juros] on R$ 100.00 due Mon Mar 10
    [1, 50, '2025-03-15', 250], // R$ 0.50 × 5 calendar days
    [2, 100, '2025-03-15', 500], // 1%/day × 5 days
    [3, 100, '2025-03-25', 50], // 1%/month × 15/30
    [4, 1200, '2025-04-09', 99], // 12%/year × 30/365 of R$ 100 = 98.63… cents
    [5, 50, '2025-03-16', 200], // R$ 0.50 × 4 business days (Tue–Fri)
    [6, 100, '2025-03-16', 400], // 1% × 4 business days
    [7, 100, '2025-04-08', 100], // 1%/month × 21/21 business days (no holiday Mar 11 – Apr 8)
    [8, 1200, '2025-04-08', 100], // 12%/year × 21/252 business days
  ] as const)('juros modalidade %d at %d, paid %s → %d cents', (modalidade, valorPerc, paymentDate, expected) => {
    const r = due({ juros: { modalidade, valorPerc } }, paymentDate)!;
    expect(r.juros).toBe(expected);
    expect(r.final).toBe(10000 + expected);
  });

  it('rounds each component half up to the cent', () => {
    const cents = (original: number, valor: Partial<DueChargeValue>, day: string) =>
      amountDue({ valor: { original, ...valor }, dataDeVencimento: DUE, paymentDate: day })!;
    expect(cents(5, { multa: { modalidade: 2, valorPerc: 1000 } }, '2025-03-11').multa).toBe(1); // 0.5 → 1
    expect(cents(25, { multa: { modalidade: 2, valorPerc: 1000 } }, '2025-03-11').multa).toBe(3); // 2.5 → 3, not 2
    expect(cents(1, { multa: { modalidade: 2, valorPerc: 4999 } }, '2025-03-11').multa).toBe(0);
    expect(cents(10000, { juros: { modalidade: 3, valorPerc: 1 } }, '2025-03-25').juros).toBe(1); // 0.5 → 1
  });
});

describe('amountDue: fixed-date discounts', () => {
  const tiers = [
    { data: '2025-02-28', valorPerc: 500 }, // Friday
    { data: '2025-03-06', valorPerc: 300 }, // Thursday
    { data: DUE, valorPerc: 100 },
  ];

  it.each([
    ['2025-02-20', 500], ['2025-02-28', 500], ['2025-03-01', 300], ['2025-03-06', 300], ['2025-03-07', 100], [DUE, 100], ['2025-03-11', 0],
  ])('fixed-value tiers, paid %s → %d', (day, expected) => {
    const r = due({ desconto: { modalidade: 1, descontoDataFixa: tiers } }, day)!;
    expect(r.desconto).toBe(expected);
    expect(r.final).toBe(10000 - expected);
  });

  it('picks the nearest date even when the tiers are listed out of order', () => {
    expect(due({ desconto: { modalidade: 1, descontoDataFixa: [tiers[2], tiers[0], tiers[1]] } }, '2025-03-02')!.desconto).toBe(300);
  });

  it('moves a tier date on a non-business day to the next business day', () => {
    // Sat Mar 1 → (Sun, Carnival Mon/Tue) → Wed Mar 5; the Sat tier wins a tie with a Wed one.
    const descontoDataFixa = [{ data: '2025-03-05', valorPerc: 300 }, { data: '2025-03-01', valorPerc: 500 }];
    expect(due({ desconto: { modalidade: 1, descontoDataFixa } }, '2025-03-04')!.desconto).toBe(500);
    expect(due({ desconto: { modalidade: 1, descontoDataFixa } }, '2025-03-05')!.desconto).toBe(500);
    expect(due({ desconto: { modalidade: 1, descontoDataFixa } }, '2025-03-06')!.desconto).toBe(0);
  });

  it('never lets an extension take away the tier current on the payment date itself', () => {
    // Sat Mar 8 R$ 10.00 and Sun Mar 9 R$ 20.00 both stand until Mon Mar 10 (audit, 2026-11-27):
    // on Sunday the Sunday tier is current; on Monday a payment counts as made by either date.
    const descontoDataFixa = [{ data: '2025-03-08', valorPerc: 1000 }, { data: '2025-03-09', valorPerc: 2000 }];
    const on = (day: string) => due({ desconto: { modalidade: 1, descontoDataFixa } }, day)!.desconto;
    expect([on('2025-03-07'), on('2025-03-08'), on('2025-03-09'), on(DUE)]).toEqual([1000, 1000, 2000, 2000]);
  });

  it('takes the larger of two tiers with the same date', () => {
    const descontoDataFixa = [{ data: '2025-03-07', valorPerc: 300 }, { data: '2025-03-07', valorPerc: 500 }];
    expect(due({ desconto: { modalidade: 1, descontoDataFixa } }, '2025-03-06')!.desconto).toBe(500);
  });

  it('gives nothing once every tier date has passed, even before the due date', () => {
    expect(due({ desconto: { modalidade: 1, descontoDataFixa: [tiers[0]] } }, '2025-03-02')!.desconto).toBe(0);
  });

  it('applies percentage tiers to original − abatimento', () => {
    const desconto = { modalidade: 2 as const, descontoDataFixa: [{ data: '2025-03-05', valorPerc: 250 }] };
    expect(due({ desconto }, '2025-03-01')!.desconto).toBe(250); // 2.5% of 10000
    expect(due({ desconto, abatimento: { modalidade: 1, valorPerc: 2000 } }, '2025-03-01')!.desconto).toBe(200); // 2.5% of 8000
    expect(due({ desconto }, '2025-03-06')!.desconto).toBe(0);
  });
});

describe('amountDue: per-day discounts', () => {
  it.each([
    // [modalidade, valorPerc, paymentDate, expected] on R$ 100.00 due Mon Mar 10
    [3, 10, '2025-03-01', 90], // R$ 0.10 × 9 calendar days early
    [3, 10, DUE, 0],
    [4, 10, '2025-03-07', 10], // [Fri 7, Mon 10) holds Fri 7 only
    [4, 10, '2025-03-01', 30], // Wed 5, Thu 6, Fri 7 (weekend and Carnival are not business days)
    [4, 10, '2025-03-08', 0], // paid Saturday: no business day left before Monday
    [5, 10, '2025-03-01', 90], // 0.10% × 9 days
    [6, 10, '2025-03-01', 30], // 0.10% × 3 business days
    [6, 10, DUE, 0],
  ] as const)('desconto modalidade %d at %d, paid %s → %d', (modalidade, valorPerc, day, expected) => {
    expect(due({ desconto: { modalidade, valorPerc } }, day)!.desconto).toBe(expected);
  });

  it('counts days of anticipation to the adjusted due date', () => {
    // due Sat Mar 8 → V* Mon Mar 10: paid Thu Mar 6 is 4 calendar days early; 10 × 4 = 40
    const r = amountDue({ valor: { original: 10000, desconto: { modalidade: 3, valorPerc: 10 } }, dataDeVencimento: '2025-03-08', paymentDate: '2025-03-06' });
    expect(r!.desconto).toBe(40);
  });

  it('gives no desconto when paid late, but still charges multa', () => {
    const r = due({ desconto: { modalidade: 3, valorPerc: 10 }, multa: { modalidade: 1, valorPerc: 100 } }, '2025-03-11')!;
    expect(r).toMatchObject({ desconto: 0, multa: 100, final: 10100 });
  });
});

describe('amountDue: abatimento, the zero floor and a custom calendar', () => {
  it('applies abatimento before, on and after the due date', () => {
    for (const day of ['2025-03-01', DUE, '2025-03-20']) {
      expect(due({ abatimento: { modalidade: 2, valorPerc: 1000 } }, day)).toMatchObject({ abatimento: 1000, final: 9000 });
      expect(due({ abatimento: { modalidade: 1, valorPerc: 1234 } }, day)).toMatchObject({ abatimento: 1234, final: 8766 });
    }
  });

  it('never goes below zero, but reports the components as computed', () => {
    // 5 calendar days early (Mar 5) × R$ 10.00 = 5000; 10000 − 8000 − 5000 < 0 → 0
    const r = due({ abatimento: { modalidade: 1, valorPerc: 8000 }, desconto: { modalidade: 3, valorPerc: 1000 } }, '2025-03-05');
    expect(r).toEqual({ original: 10000, multa: 0, juros: 0, abatimento: 8000, desconto: 5000, final: 0 });
  });

  it('combines everything after the due date', () => {
    const valor: DueChargeValue = {
      original: 123456,
      multa: { modalidade: 2, valorPerc: 200 },
      juros: { modalidade: 3, valorPerc: 100 },
      abatimento: { modalidade: 1, valorPerc: 456 },
      desconto: { modalidade: 5, valorPerc: 5 },
    };
    // Vo − Va = 123000; multa 2% = 2460; juros 1%/month × 10/30 = 410; 123456 − 456 + 2460 + 410.
    // (Read on the original, as before, it was multa 2469 and juros 412: final 125881.)
    expect(amountDue({ valor, dataDeVencimento: DUE, paymentDate: '2025-03-20' })).toEqual({
      original: 123456, multa: 2460, juros: 410, abatimento: 456, desconto: 0, final: 125870,
    });
  });

  it('takes a calendar of the caller’s own over codMun', () => {
    // A PSP whose list makes Tue Mar 11 a holiday: paying that day is not late.
    const base = calendarFor();
    const calendar = { holidaysOf: base.holidaysOf, isBusinessDay: (d: string) => d !== '2025-03-11' && base.isBusinessDay(d) };
    const r = amountDue({ valor: { original: 10000, multa: { modalidade: 1, valorPerc: 100 } }, dataDeVencimento: '2025-03-11', paymentDate: '2025-03-12', codMun: '3550308', calendar });
    expect(r).toMatchObject({ multa: 0, final: 10000 });
  });
});

describe('amountDue: malformed input', () => {
  const ok: AmountDueInput = { valor: { original: 10000 }, dataDeVencimento: DUE, paymentDate: DUE };
  it.each([
    ['bad due date', { ...ok, dataDeVencimento: '2025-02-30' }],
    ['bad payment date', { ...ok, paymentDate: '10/03/2025' }],
    ['negative validade', { ...ok, validadeAposVencimento: -1 }],
    ['fractional original', { ...ok, valor: { original: 100.5 } }],
    ['negative original', { ...ok, valor: { original: -1 } }],
    ['unknown multa modalidade', { ...ok, valor: { original: 1, multa: { modalidade: 3, valorPerc: 1 } } }],
    ['unknown juros modalidade', { ...ok, valor: { original: 1, juros: { modalidade: 9, valorPerc: 1 } } }],
    ['negative juros', { ...ok, valor: { original: 1, juros: { modalidade: 2, valorPerc: -1 } } }],
    ['bad discount tier date', { ...ok, valor: { original: 1, desconto: { modalidade: 1, descontoDataFixa: [{ data: 'x', valorPerc: 1 }] } } }],
    ['fixed-date discount without dates', { ...ok, valor: { original: 1, desconto: { modalidade: 1 } } }],
    ['per-day discount without valorPerc', { ...ok, paymentDate: '2025-03-01', valor: { original: 1, desconto: { modalidade: 3 } } }],
    ['fractional discount tier', { ...ok, valor: { original: 1, desconto: { modalidade: 1, descontoDataFixa: [{ data: DUE, valorPerc: 0.5 }] } } }],
    ['codMun not 7 digits', { ...ok, codMun: '123' }],
  ])('throws RangeError on %s', (_name, input) => {
    expect(() => amountDue(input as AmountDueInput)).toThrow(RangeError);
  });
});
