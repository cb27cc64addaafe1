import { amountDue, AmountDueInput, DueChargeValue } from './amount-due';

// 2025-03-10 is a Monday. R$ 100.00 unless said otherwise.
const DUE = '2025-03-10';
const due = (valor: Partial<DueChargeValue>, paymentDate: string, validadeAposVencimento?: number) =>
  amountDue({ valor: { original: 10000, ...valor }, dataDeVencimento: DUE, paymentDate, validadeAposVencimento });

describe('amountDue: plain charge and validity window', () => {
  it('is the original on, before and after the due date while valid', () => {
    for (const day of ['2025-01-01', '2025-03-09', DUE, '2025-03-11', '2025-04-09']) {
      expect(due({}, day)).toEqual({ original: 10000, multa: 0, juros: 0, abatimento: 0, desconto: 0, final: 10000 });
    }
  });

  it('defaults validadeAposVencimento to 30 days', () => {
    expect(due({}, '2025-04-09')).not.toBeNull();
    expect(due({}, '2025-04-10')).toBeNull();
  });

  it('honours an explicit validadeAposVencimento, including 0', () => {
    expect(due({}, '2025-03-15', 5)).not.toBeNull();
    expect(due({}, '2025-03-16', 5)).toBeNull();
    expect(due({}, DUE, 0)).not.toBeNull();
    expect(due({}, '2025-03-11', 0)).toBeNull();
  });
});

describe('amountDue: multa and juros (only after the due date)', () => {
  const multaPct = { modalidade: 2 as const, valorPerc: 200 }; // 2%

  it('charges neither on the due date', () => {
    expect(due({ multa: multaPct, juros: { modalidade: 2, valorPerc: 100 } }, DUE)).toMatchObject({ multa: 0, juros: 0, final: 10000 });
  });

  it('charges multa once, whatever the delay', () => {
    expect(due({ multa: multaPct }, '2025-03-11')).toMatchObject({ multa: 200, final: 10200 });
    expect(due({ multa: multaPct }, '2025-04-09')).toMatchObject({ multa: 200, final: 10200 });
    expect(due({ multa: { modalidade: 1, valorPerc: 350 } }, '2025-03-11')).toMatchObject({ multa: 350, final: 10350 });
  });

  it.each([
    // [modalidade, valorPerc, paymentDate, expected juros]
    [1, 50, '2025-03-15', 250], // R$0.50 × 5 calendar days
    [2, 100, '2025-03-11', 100], // 1%/day × 1 day
    [2, 100, '2025-03-15', 500], // 1%/day × 5 days
    [3, 100, '2025-03-25', 50], // 1%/month × 15/30
    [4, 1200, '2025-04-09', 99], // 12%/year × 30/365 of R$100 = 98.63… cents
    [5, 50, '2025-03-16', 200], // R$0.50 × 4 weekdays (Tue–Fri; Sat/Sun don't count)
    [6, 100, '2025-03-16', 400], // 1% × 4 weekdays
    [7, 100, '2025-04-08', 100], // 1%/month × 21/21 weekdays
    [8, 1200, '2025-04-08', 100], // 12%/year × 21/252 weekdays
  ] as const)('juros modalidade %d at %d, paid %s → %d cents', (modalidade, valorPerc, paymentDate, expected) => {
    const r = due({ juros: { modalidade, valorPerc } }, paymentDate)!;
    expect(r.juros).toBe(expected);
    expect(r.final).toBe(10000 + expected);
  });

  it('treats a due date on a weekend as due that day (no holiday/next-business-day shift)', () => {
    const onSaturday = { valor: { original: 10000, juros: { modalidade: 6 as const, valorPerc: 100 } }, dataDeVencimento: '2025-03-08' };
    expect(amountDue({ ...onSaturday, paymentDate: '2025-03-09' })!.juros).toBe(0); // Sunday: late, 0 weekdays
    expect(amountDue({ ...onSaturday, paymentDate: '2025-03-10' })!.juros).toBe(100); // Monday: 1 weekday
  });

  it('computes percentages on the original, not on original − abatimento', () => {
    expect(due({ multa: multaPct, abatimento: { modalidade: 1, valorPerc: 1000 } }, '2025-03-11')).toEqual({
      original: 10000, multa: 200, juros: 0, abatimento: 1000, desconto: 0, final: 9200,
    });
  });

  it('rounds half up to the cent', () => {
    const cents = (original: number, valor: Partial<DueChargeValue>, day: string) =>
      amountDue({ valor: { original, ...valor }, dataDeVencimento: DUE, paymentDate: day })!;
    expect(cents(5, { multa: { modalidade: 2, valorPerc: 1000 } }, '2025-03-11').multa).toBe(1); // 0.5 → 1
    expect(cents(25, { multa: { modalidade: 2, valorPerc: 1000 } }, '2025-03-11').multa).toBe(3); // 2.5 → 3, not 2
    expect(cents(1, { multa: { modalidade: 2, valorPerc: 4999 } }, '2025-03-11').multa).toBe(0);
    expect(cents(10000, { juros: { modalidade: 3, valorPerc: 1 } }, '2025-03-25').juros).toBe(1); // 0.5 → 1
  });
});

describe('amountDue: desconto (only up to the due date)', () => {
  const tiers = [
    { data: '2025-03-01', valorPerc: 500 },
    { data: '2025-03-05', valorPerc: 300 },
    { data: DUE, valorPerc: 100 },
  ];

  it.each([
    ['2025-02-20', 500], ['2025-03-01', 500], ['2025-03-02', 300], ['2025-03-05', 300], ['2025-03-06', 100], [DUE, 100], ['2025-03-11', 0],
  ])('fixed-value tiers, paid %s → %d', (day, expected) => {
    const r = due({ desconto: { modalidade: 1, descontoDataFixa: tiers } }, day)!;
    expect(r.desconto).toBe(expected);
    expect(r.final).toBe(10000 - expected);
  });

  it('picks the nearest date even when the tiers are listed out of order', () => {
    const shuffled = [tiers[2], tiers[0], tiers[1]];
    expect(due({ desconto: { modalidade: 1, descontoDataFixa: shuffled } }, '2025-03-02')!.desconto).toBe(300);
  });

  it('gives nothing once every tier date has passed, even before the due date', () => {
    expect(due({ desconto: { modalidade: 1, descontoDataFixa: [tiers[0]] } }, '2025-03-02')!.desconto).toBe(0);
  });

  it('applies percentage tiers to the original', () => {
    const desconto = { modalidade: 2 as const, descontoDataFixa: [{ data: '2025-03-05', valorPerc: 250 }] };
    expect(due({ desconto }, '2025-03-01')!.desconto).toBe(250);
    expect(due({ desconto }, '2025-03-06')!.desconto).toBe(0);
  });

  it.each([
    // [modalidade, valorPerc, paymentDate, expected]
    [3, 10, '2025-03-01', 90], // R$0.10 × 9 calendar days early
    [3, 10, DUE, 0],
    [4, 10, '2025-03-07', 10], // Fri: only Mon 10 lies in (7, 10]
    [4, 10, '2025-03-01', 60], // Sat: Mon–Fri 3..7 and Mon 10
    [5, 10, '2025-03-01', 90], // 0.10% × 9 days
    [6, 10, '2025-03-01', 60], // 0.10% × 6 weekdays
    [6, 10, DUE, 0],
  ] as const)('desconto modalidade %d at %d, paid %s → %d', (modalidade, valorPerc, day, expected) => {
    expect(due({ desconto: { modalidade, valorPerc } }, day)!.desconto).toBe(expected);
  });

  it('gives no desconto when paid late, but still charges multa', () => {
    const r = due({ desconto: { modalidade: 3, valorPerc: 10 }, multa: { modalidade: 1, valorPerc: 100 } }, '2025-03-11')!;
    expect(r).toMatchObject({ desconto: 0, multa: 100, final: 10100 });
  });
});

describe('amountDue: abatimento and the zero floor', () => {
  it('applies abatimento before, on and after the due date', () => {
    for (const day of ['2025-03-01', DUE, '2025-03-20']) {
      expect(due({ abatimento: { modalidade: 2, valorPerc: 1000 } }, day)).toMatchObject({ abatimento: 1000, final: 9000 });
      expect(due({ abatimento: { modalidade: 1, valorPerc: 1234 } }, day)).toMatchObject({ abatimento: 1234, final: 8766 });
    }
  });

  it('never goes below zero, but reports the components as computed', () => {
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
    // multa 2% = 2469.12 → 2469; juros 1%/month × 10/30 = 411.52 → 412.
    expect(amountDue({ valor, dataDeVencimento: DUE, paymentDate: '2025-03-20' })).toEqual({
      original: 123456, multa: 2469, juros: 412, abatimento: 456, desconto: 0, final: 125881,
    });
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
  ])('throws RangeError on %s', (_name, input) => {
    expect(() => amountDue(input as AmountDueInput)).toThrow(RangeError);
  });
});
