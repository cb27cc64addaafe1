// Brazilian taxpayer ids. CPF: 11 digits. CNPJ: 14 chars; since 2026 the Receita Federal also
// issues alphanumeric CNPJs (12 chars [0-9A-Z] + 2 check digits), validated with the classic
// mod-11 algorithm where each char is worth its ASCII code minus 48 ('0'→0 … '9'→9, 'A'→17 … 'Z'→42).

const CPF_PATTERN = /^\d{11}$/;
const CPF_BASE_PATTERN = /^\d{9}$/;
const CNPJ_PATTERN = /^[0-9A-Z]{12}\d{2}$/;
const CNPJ_BASE_PATTERN = /^[0-9A-Z]{12}$/;
const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

// Ids made of one repeated digit pass the arithmetic but are never issued.
const allSameChar = (s: string): boolean => /^(.)\1*$/.test(s);

const charValue = (c: string): number => c.charCodeAt(0) - 48;

// Shared mod-11 rule: remainder < 2 → 0, otherwise 11 − remainder.
function mod11Digit(sum: number): number {
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

function cpfCheckDigit(digits: string): number {
  // Weights run from digits.length + 1 down to 2.
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += charValue(digits[i]) * (digits.length + 1 - i);
  return mod11Digit(sum);
}

function cnpjCheckDigit(chars: string): number {
  // 12 chars use weights 5..2,9..2; 13 chars use 6,5..2,9..2: the tail of CNPJ_WEIGHTS.
  const weights = CNPJ_WEIGHTS.slice(CNPJ_WEIGHTS.length - chars.length);
  let sum = 0;
  for (let i = 0; i < chars.length; i++) sum += charValue(chars[i]) * weights[i];
  return mod11Digit(sum);
}

/** Appends both check digits to a 9-digit CPF base. Throws on a malformed base. */
export function cpfWithCheckDigits(base9: string): string {
  if (!CPF_BASE_PATTERN.test(base9)) throw new RangeError(`CPF base must be 9 digits, got "${base9}"`);
  const first = base9 + cpfCheckDigit(base9);
  return first + cpfCheckDigit(first);
}

/** Appends both check digits to a 12-char CNPJ base ([0-9A-Z], uppercase). Throws on a malformed base. */
export function cnpjWithCheckDigits(base12: string): string {
  if (!CNPJ_BASE_PATTERN.test(base12)) throw new RangeError(`CNPJ base must be 12 chars [0-9A-Z], got "${base12}"`);
  const first = base12 + cnpjCheckDigit(base12);
  return first + cnpjCheckDigit(first);
}

/** 11 digits, no punctuation, both check digits right, not one repeated digit. */
export function isValidCpf(s: string): boolean {
  if (typeof s !== 'string' || !CPF_PATTERN.test(s) || allSameChar(s)) return false;
  return cpfWithCheckDigits(s.slice(0, 9)) === s;
}

/** Numeric or alphanumeric CNPJ, no punctuation, uppercase only, both check digits right. */
export function isValidCnpj(s: string): boolean {
  if (typeof s !== 'string' || !CNPJ_PATTERN.test(s) || allSameChar(s)) return false;
  return cnpjWithCheckDigits(s.slice(0, 12)) === s;
}
