import { businessDayOnOrAfter, businessDaysBetween, calendarFor, easterSunday, isBusinessDay, nationalHolidays } from './business-days';
import { DISTINCT_LOCAL_CALENDARS, isIbgeMunicipalityCode, KNOWN_MUNICIPALITIES, municipalHolidays } from './municipal-holidays';

describe('easterSunday', () => {
  it.each([
    [2000, '2000-04-23'], [2019, '2019-04-21'], [2024, '2024-03-31'], [2025, '2025-04-20'], [2026, '2026-04-05'],
    [2038, '2038-04-25'], // the latest possible date
    [2285, '2285-03-22'], // the earliest possible date
  ])('%d → %s', (year, date) => expect(easterSunday(year)).toBe(date));

  it('refuses years outside the Gregorian range it is defined for', () => {
    expect(() => easterSunday(1582)).toThrow(RangeError);
    expect(() => easterSunday(2025.5)).toThrow(RangeError);
  });
});

describe('nationalHolidays', () => {
  it('lists the fixed national holidays and the Easter-based bank holidays of 2025', () => {
    expect([...nationalHolidays(2025)].sort()).toEqual([
      '2025-01-01',
      '2025-03-03', '2025-03-04', // Carnival Monday and Tuesday: Easter (Apr 20) − 48 and − 47
      '2025-04-18', // Good Friday: Easter − 2
      '2025-04-21', '2025-05-01',
      '2025-06-19', // Corpus Christi: Easter + 60
      '2025-09-07', '2025-10-12', '2025-11-02', '2025-11-15', '2025-11-20', '2025-12-25',
    ]);
  });

  it('has the Easter-based days of 2026 (Easter Apr 5)', () => {
    const days = nationalHolidays(2026);
    for (const d of ['2026-02-16', '2026-02-17', '2026-04-03', '2026-06-04']) expect(days.has(d)).toBe(true);
    expect(days.has('2026-02-18')).toBe(false); // Ash Wednesday: banks open at noon, a business day
  });

  it('makes Nov 20 national from 2024 on (Lei 14.759/2023)', () => {
    expect(nationalHolidays(2023).has('2023-11-20')).toBe(false);
    expect(nationalHolidays(2024).has('2024-11-20')).toBe(true);
  });
});

describe('business days', () => {
  it('knows weekends and holidays', () => {
    expect(isBusinessDay('2025-03-07')).toBe(true); // Friday
    expect(isBusinessDay('2025-03-08')).toBe(false); // Saturday
    expect(isBusinessDay('2025-03-04')).toBe(false); // Carnival Tuesday
    expect(isBusinessDay('2025-03-05')).toBe(true); // Ash Wednesday
    expect(() => isBusinessDay('2025-02-29')).toThrow(RangeError);
  });

  it('moves a date to the next business day only when needed', () => {
    expect(businessDayOnOrAfter('2025-03-10')).toBe('2025-03-10'); // Monday
    expect(businessDayOnOrAfter('2025-03-01')).toBe('2025-03-05'); // Sat, Sun, Carnival Mon/Tue → Wed
    expect(businessDayOnOrAfter('2025-04-18')).toBe('2025-04-22'); // Good Friday, weekend, Tiradentes → Tue
    expect(businessDayOnOrAfter('2020-12-25')).toBe('2020-12-28'); // the contract's example B
  });

  it('counts business days d with a < d ≤ b', () => {
    expect(businessDaysBetween('2025-03-10', '2025-03-10')).toBe(0);
    expect(businessDaysBetween('2025-03-10', '2025-03-01')).toBe(0);
    expect(businessDaysBetween('2025-03-07', '2025-03-09')).toBe(0); // Sat, Sun
    expect(businessDaysBetween('2025-02-28', '2025-03-07')).toBe(3); // Mar 3–4 Carnival: Wed, Thu, Fri
    expect(businessDaysBetween('2025-04-17', '2025-04-22')).toBe(1); // only Tue 22
  });

  it('counts 252 business days in 2025 (261 weekdays − 9 weekday holidays)', () => {
    // Weekday holidays of 2025: Jan 1, Mar 3, Mar 4, Apr 18, Apr 21, May 1, Jun 19, Nov 20, Dec 25
    // (Sep 7, Oct 12, Nov 2 fall on Sunday, Nov 15 on Saturday).
    expect(businessDaysBetween('2024-12-31', '2025-12-31')).toBe(252);
  });

  it('agrees with a day-by-day count over several years', () => {
    let byDay = 0;
    for (let d = '2023-12-31'; d < '2027-01-01'; d = businessDayOnOrAfter(next(d))) {
      if (d > '2023-12-31' && d <= '2026-12-31') byDay++;
    }
    expect(businessDaysBetween('2023-12-31', '2026-12-31')).toBe(byDay);
  });
});

describe('calendarFor(codMun)', () => {
  it('adds the built-in municipal and state holidays of a known city', () => {
    const saoPaulo = calendarFor('3550308');
    expect(saoPaulo.isBusinessDay('2025-07-09')).toBe(false); // Revolução Constitucionalista (SP)
    expect(saoPaulo.isBusinessDay('2025-01-24')).toBe(true);
    expect(calendarFor('3304557').isBusinessDay('2025-04-23')).toBe(false); // São Jorge (RJ)
    expect(isBusinessDay('2025-07-09')).toBe(true); // not a holiday nationally
    expect(businessDaysBetween('2025-07-08', '2025-07-11', saoPaulo)).toBe(2); // Thu 10, Fri 11
  });

  it("gives every municipality of a state that state's holidays (the code's first two digits), not only its capital", () => {
    expect(calendarFor('3509502').isBusinessDay('2027-07-09')).toBe(false); // Campinas (SP): Revolução Constitucionalista
    expect(calendarFor('3509502').isBusinessDay('2027-01-25')).toBe(true); // São Paulo city's anniversary is not Campinas'
    expect(calendarFor('3303302').isBusinessDay('2025-04-23')).toBe(false); // Niterói (RJ): São Jorge
    expect(calendarFor('4305108').isBusinessDay('2025-09-19')).toBe(true);
    expect(businessDaysBetween('2027-07-08', '2027-07-12', calendarFor('3518800'))).toBe(1); // Guarulhos (SP): Mon 12 only
  });

  it('tells a possible IBGE municipality code: 7 digits, the first two a state', () => {
    for (const code of ['3550308', '3509502', '1100015', '5300108']) expect(isIbgeMunicipalityCode(code)).toBe(true);
    for (const code of ['0000000', '9999999', '0000001', '1000000', '3450308', '355030', '35503080', 'x550308']) expect(isIbgeMunicipalityCode(code)).toBe(false);
  });

  it('counts business days across years the same way through the per-year counts as day by day', () => {
    const sp = calendarFor('3550308');
    expect(calendarFor('3550308')).toBe(sp); // one calendar per list of local days
    const slow = (a: string, b: string) => {
      let n = 0;
      for (let d = next(a); d <= b; d = next(d)) if (sp.isBusinessDay(d)) n++;
      return n;
    };
    expect(businessDaysBetween('2026-11-26', '2031-03-02', sp)).toBe(slow('2026-11-26', '2031-03-02'));
    expect(businessDaysBetween('2026-11-26', '2031-03-02', sp)).toBe(slow('2026-11-26', '2031-03-02')); // counts kept
    expect(businessDaysBetween('2027-12-31', '2029-01-01')).toBe(slow2('2027-12-31', '2029-01-01'));
  });

  it('falls back to national and bank holidays for a city it does not know', () => {
    expect(calendarFor('1509873').isBusinessDay('2025-07-09')).toBe(true);
    expect(municipalHolidays('1509873')).toEqual([]);
    expect(municipalHolidays('constructor')).toEqual([]);
  });

  it('refuses a codMun that is not 7 digits', () => {
    for (const bad of ['355030', '35503080', '355030a', '']) expect(() => calendarFor(bad)).toThrow(RangeError);
  });

  it('keeps its table to well-formed entries', () => {
    for (const code of [...KNOWN_MUNICIPALITIES, ...DISTINCT_LOCAL_CALENDARS]) {
      expect(isIbgeMunicipalityCode(code)).toBe(true);
      expect(code).toMatch(/^\d{7}$/);
      for (const md of municipalHolidays(code)) expect(md).toMatch(/^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/);
    }
  });
});

/** Business days after a up to b, national calendar, day by day. */
function slow2(a: string, b: string): number {
  let n = 0;
  for (let d = next(a); d <= b; d = next(d)) if (isBusinessDay(d)) n++;
  return n;
}

function next(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
