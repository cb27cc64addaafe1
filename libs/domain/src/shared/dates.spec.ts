import {
  addDays, businessDateOf, compareDates, dayOfWeek, daysBetween, fromEpochDay, isValidIsoDate, isWeekday, toEpochDay, weekdaysBetween,
} from './dates';

const DAY_MS = 86_400_000;

describe('isValidIsoDate', () => {
  it.each([['2024-02-29'], ['2000-02-29'], ['2025-12-31'], ['2025-01-01'], ['0001-01-01'], ['9999-12-31'], ['2025-04-30']])('accepts %s', (s) => {
    expect(isValidIsoDate(s)).toBe(true);
  });

  it.each([
    ['2023-02-29'], ['1900-02-29'], ['2100-02-29'], ['2025-04-31'], ['2025-13-01'], ['2025-00-10'], ['2025-01-00'], ['2025-01-32'],
    ['2025-1-01'], ['25-01-01'], ['2025-01-01T00:00:00Z'], ['2025/01/01'], [' 2025-01-01'], [''], ['２０２５-01-01'],
  ])('rejects %s', (s) => {
    expect(isValidIsoDate(s)).toBe(false);
  });
});

describe('epoch-day arithmetic', () => {
  it('anchors at 1970-01-01', () => {
    expect(toEpochDay('1970-01-01')).toBe(0);
    expect(toEpochDay('2000-01-01')).toBe(10957);
    expect(toEpochDay('1969-12-31')).toBe(-1);
    expect(fromEpochDay(0)).toBe('1970-01-01');
  });

  it('agrees with Date.UTC over a wide sample, both ways', () => {
    for (let n = -200_000; n <= 200_000; n += 97) {
      const iso = new Date(n * DAY_MS).toISOString().slice(0, 10);
      expect(fromEpochDay(n)).toBe(iso);
      expect(toEpochDay(iso)).toBe(n);
    }
  });

  it('handles the years at the edges', () => {
    expect(fromEpochDay(toEpochDay('0001-01-01'))).toBe('0001-01-01');
    expect(fromEpochDay(toEpochDay('9999-12-31'))).toBe('9999-12-31');
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError);
    expect(() => toEpochDay('2023-02-29')).toThrow(RangeError);
  });

  it('adds days across months, leap days and years', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
    expect(addDays('2025-03-10', 30)).toBe('2025-04-09');
    expect(addDays('2025-03-10', 0)).toBe('2025-03-10');
    expect(addDays('2024-01-01', 366)).toBe('2025-01-01');
    expect(() => addDays('2025-01-01', 1.5)).toThrow(RangeError);
  });

  it('measures b − a in days', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2023-02-28', '2023-03-01')).toBe(1);
    expect(daysBetween('2025-03-10', '2025-03-01')).toBe(-9);
    expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
    expect(daysBetween('2025-05-05', '2025-05-05')).toBe(0);
  });

  it('compares and sorts dates', () => {
    expect(compareDates('2025-01-01', '2025-01-02')).toBe(-1);
    expect(compareDates('2025-01-02', '2025-01-01')).toBe(1);
    expect(compareDates('2025-01-01', '2025-01-01')).toBe(0);
    expect(['2025-03-01', '1999-12-31', '2025-02-28'].sort(compareDates)).toEqual(['1999-12-31', '2025-02-28', '2025-03-01']);
  });
});

describe('weekdays', () => {
  it('knows the day of the week', () => {
    expect(dayOfWeek('1970-01-01')).toBe(4); // Thursday
    expect(dayOfWeek('2025-03-10')).toBe(1); // Monday
    expect(dayOfWeek('2025-03-09')).toBe(0); // Sunday
    expect(dayOfWeek('1969-12-27')).toBe(6); // Saturday, before the epoch
    expect(isWeekday('2025-03-14')).toBe(true);
    expect(isWeekday('2025-03-15')).toBe(false);
  });

  it('counts weekdays in (a, b]', () => {
    expect(weekdaysBetween('2025-03-07', '2025-03-10')).toBe(1); // Fri → Mon
    expect(weekdaysBetween('2025-03-10', '2025-03-17')).toBe(5);
    expect(weekdaysBetween('2025-03-08', '2025-03-09')).toBe(0); // Sat → Sun
    expect(weekdaysBetween('2025-03-10', '2025-03-10')).toBe(0);
    expect(weekdaysBetween('2025-03-17', '2025-03-10')).toBe(0);
  });

  it('agrees with a day-by-day count', () => {
    const start = toEpochDay('2024-12-20');
    for (let a = 0; a < 14; a++) {
      for (let len = 0; len < 40; len++) {
        let expected = 0;
        for (let d = start + a + 1; d <= start + a + len; d++) if (isWeekday(fromEpochDay(d))) expected++;
        expect(weekdaysBetween(fromEpochDay(start + a), fromEpochDay(start + a + len))).toBe(expected);
      }
    }
  });
});

describe('businessDateOf', () => {
  it('takes the civil date in São Paulo by default (UTC−3 since 2019)', () => {
    expect(businessDateOf(new Date('2024-03-01T02:59:59Z'))).toBe('2024-02-29');
    expect(businessDateOf(new Date('2024-03-01T03:00:00Z'))).toBe('2024-03-01');
    expect(businessDateOf(new Date('2024-12-31T23:00:00-03:00'))).toBe('2024-12-31');
  });

  it('follows historic daylight saving time from the tz database', () => {
    // January 2019: São Paulo was on UTC−2, so 02:30Z is already 00:30 on the 15th.
    expect(businessDateOf(new Date('2019-01-15T02:30:00Z'))).toBe('2019-01-15');
    expect(businessDateOf(new Date('2019-01-15T01:30:00Z'))).toBe('2019-01-14');
  });

  it('honours an explicit zone', () => {
    const instant = new Date('2025-06-30T20:00:00Z');
    expect(businessDateOf(instant, 'UTC')).toBe('2025-06-30');
    expect(businessDateOf(instant, 'Asia/Tokyo')).toBe('2025-07-01');
    expect(businessDateOf(instant, 'America/Manaus')).toBe('2025-06-30');
    expect(businessDateOf(new Date('2025-07-01T02:00:00Z'), 'America/Manaus')).toBe('2025-06-30');
  });

  it('refuses invalid instants and zones', () => {
    expect(() => businessDateOf(new Date('nope'))).toThrow(RangeError);
    expect(() => businessDateOf(new Date('2025-01-01T00:00:00Z'), 'Mars/Olympus_Mons')).toThrow(RangeError);
    expect(() => businessDateOf(new Date(Date.UTC(10000, 0, 2)), 'UTC')).toThrow(RangeError);
  });
});
