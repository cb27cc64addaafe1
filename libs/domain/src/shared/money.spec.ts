import { formatMoney, formatPercent, MAX_WIRE_CENTS, mulDivRoundHalfUp, parseMoney, parsePercent, percentOfCents } from './money';

describe('parseMoney', () => {
  it.each([
    ['0.00', 0],
    ['0.01', 1],
    ['0.10', 10],
    ['1.00', 100],
    ['123.45', 12345],
    ['01.50', 150],
    ['9999999999.99', MAX_WIRE_CENTS],
    ['0.29', 29], // 0.29 * 100 is 28.999… in floating point; string parsing must not go there
    ['1234567.89', 123456789],
  ])('reads %s as %d cents', (s, cents) => {
    expect(parseMoney(s)).toBe(cents);
  });

  it.each([
    ['1.5'], ['1.234'], ['1'], ['1.'], ['.50'], ['-1.00'], ['+1.00'], [' 1.00'], ['1.00 '], ['1,00'],
    ['12345678901.00'], [''], ['1e3'], ['1.0a'], ['١.٠٠'], ['1.00\n'],
  ])('rejects the string %j', (s) => {
    expect(parseMoney(s)).toBeNull();
  });

  it.each([[123.45], [12345], [null], [undefined], [{}], [['1.00']]])('rejects the non-string %j', (v) => {
    expect(parseMoney(v)).toBeNull();
  });
});

describe('formatMoney', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [10, '0.10'],
    [100, '1.00'],
    [12345, '123.45'],
    [MAX_WIRE_CENTS, '9999999999.99'],
  ])('renders %d cents as %s', (cents, s) => {
    expect(formatMoney(cents)).toBe(s);
  });

  it.each([[1.5], [-1], [NaN], [Infinity], [MAX_WIRE_CENTS + 1]])('refuses %d', (cents) => {
    expect(() => formatMoney(cents)).toThrow(RangeError);
  });

  it('round-trips with parseMoney', () => {
    for (const cents of [0, 1, 9, 10, 99, 100, 101, 999, 1000, 123456, 100000000, 999999999998, MAX_WIRE_CENTS]) {
      expect(parseMoney(formatMoney(cents))).toBe(cents);
    }
  });
});

describe('percentages', () => {
  it('keeps "2.50" percent as 250 hundredths and back', () => {
    expect(parsePercent('2.50')).toBe(250);
    expect(parsePercent('100.00')).toBe(10000);
    expect(parsePercent('0.01')).toBe(1);
    expect(formatPercent(250)).toBe('2.50');
    expect(formatPercent(1)).toBe('0.01');
  });

  it('rejects malformed percentages', () => {
    expect(parsePercent('2.5')).toBeNull();
    expect(parsePercent('2.50%')).toBeNull();
    expect(parsePercent(2.5)).toBeNull();
    expect(() => formatPercent(-1)).toThrow(RangeError);
  });

  it('takes a percentage of an amount, rounding half up to the cent', () => {
    expect(percentOfCents(10000, 250)).toBe(250); // 2.50% of 100.00
    expect(percentOfCents(10000, 10000)).toBe(10000);
    expect(percentOfCents(5, 1000)).toBe(1); // 10% of 0.05 = 0.005 → 0.01
    expect(percentOfCents(4, 1000)).toBe(0); // 0.004 → 0.00
    expect(percentOfCents(15, 1000)).toBe(2); // 0.015 → 0.02
    expect(percentOfCents(25, 1000)).toBe(3); // half up, not half even
    expect(percentOfCents(0, 9999)).toBe(0);
  });
});

describe('mulDivRoundHalfUp', () => {
  it('rounds exact halves up and the rest to nearest', () => {
    expect(mulDivRoundHalfUp([1], 2)).toBe(1);
    expect(mulDivRoundHalfUp([3], 2)).toBe(2);
    expect(mulDivRoundHalfUp([1], 3)).toBe(0);
    expect(mulDivRoundHalfUp([2], 3)).toBe(1);
    expect(mulDivRoundHalfUp([7, 3], 1)).toBe(21);
    expect(mulDivRoundHalfUp([], 1)).toBe(1);
  });

  it('stays exact when the intermediate product passes 2^53', () => {
    // 9999999999.99 at 100%/year for 365 days → exactly the principal.
    expect(mulDivRoundHalfUp([MAX_WIRE_CENTS, 10000, 365], 10000 * 365)).toBe(MAX_WIRE_CENTS);
    const expected = (999_999_999_999n * 12_345n * 731n * 2n + 3_650_000n) / (3_650_000n * 2n);
    expect(mulDivRoundHalfUp([MAX_WIRE_CENTS, 12345, 731], 3_650_000)).toBe(Number(expected));
  });

  it('refuses inputs that are not non-negative integers, a zero divisor and unsafe results', () => {
    expect(() => mulDivRoundHalfUp([-1], 1)).toThrow(RangeError);
    expect(() => mulDivRoundHalfUp([1.5], 1)).toThrow(RangeError);
    expect(() => mulDivRoundHalfUp([1], 0)).toThrow(RangeError);
    expect(() => mulDivRoundHalfUp([1], 0.5)).toThrow(RangeError);
    expect(() => mulDivRoundHalfUp([Number.MAX_SAFE_INTEGER, 2], 1)).toThrow(RangeError);
  });
});
