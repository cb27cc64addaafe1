// Classification of Pix (DICT) keys in the exact form they appear in BR Codes and in the
// API Pix `chave` field: no punctuation, e-mails lowercase, phones in E.164 with "+".
import { isValidCnpj, isValidCpf } from './documents';

export type PixKeyType = 'cpf' | 'cnpj' | 'email' | 'telefone' | 'evp';

/** DICT limit on any key's length (also the e-mail limit). */
export const PIX_KEY_MAX_LENGTH = 77;

const EVP_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ELEVEN_DIGITS = /^\d{11}$/;
const FOURTEEN_CHARS = /^[0-9A-Za-z]{14}$/;
// General E.164; Brazilian numbers (+55 + DDD + 8/9 digits) are a subset.
const PHONE_PATTERN = /^\+[1-9]\d{1,14}$/;
// The HTML "valid e-mail address" grammar restricted to lowercase, as DICT stores e-mail keys.
const EMAIL_PATTERN =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * The key's type, or null when it fits none. Order matters: 11 bare digits are a CPF
 * candidate (a phone needs "+"), and a failed CPF/CNPJ check means "invalid", not "try the next type".
 */
export function pixKeyType(key: string): PixKeyType | null {
  if (typeof key !== 'string' || key.length === 0 || key.length > PIX_KEY_MAX_LENGTH) return null;
  if (ELEVEN_DIGITS.test(key)) return isValidCpf(key) ? 'cpf' : null;
  if (FOURTEEN_CHARS.test(key)) return isValidCnpj(key) ? 'cnpj' : null;
  if (PHONE_PATTERN.test(key)) return 'telefone';
  if (EVP_PATTERN.test(key)) return 'evp';
  if (EMAIL_PATTERN.test(key)) return 'email';
  return null;
}

/** Convenience for validators: true when the key is any valid DICT key. */
export function isValidPixKey(key: string): boolean {
  return pixKeyType(key) !== null;
}
