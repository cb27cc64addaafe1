// EMV® BR Code ("Pix Copia e Cola") for dynamic charges, per the BCB "Manual de Padrões para
// Iniciação do Pix": a flat list of ID(2) + LEN(2) + value fields closed by a CRC16 (field 63).

export interface DynamicBrCodeInput {
  /** Payload location, scheme-less or (as older versions stored it) with "https://"; see payloadLocation. */
  location: string;
  merchantName: string;
  merchantCity: string;
}

export interface ParsedBrCode {
  fields: Map<string, string>;
  crcValid: boolean;
  /** Sub-fields of field 26 (Pix merchant account information); empty when absent. */
  merchantAccount: Map<string, string>;
}

export const PIX_GUI = 'br.gov.bcb.pix';
export const BR_CODE_MAX_LENGTH = 512;
const MERCHANT_NAME_MAX = 25;
const MERCHANT_CITY_MAX = 15;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** CRC16/CCITT-FALSE's table: one lookup per byte instead of eight shifts (it was a GET's hottest loop). */
const CRC_TABLE = Uint16Array.from({ length: 256 }, (_, n) => {
  let crc = n << 8;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  return crc;
});

const utf8 = new TextEncoder();

/** CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xorout) of the UTF-8 bytes, as 4 uppercase hex. */
export function crc16Ccitt(s: string): string {
  let crc = 0xffff;
  // A BR Code we build is ASCII, whose UTF-8 bytes are its char codes: no encoding (it was a
  // third of the BR Code's cost on every PUT and GET). Anything else is encoded first.
  for (let i = 0; i < s.length; i++) {
    const byte = s.charCodeAt(i);
    if (byte > 0x7f) return crc16OfBytes(utf8.encode(s));
    crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[(crc >> 8) ^ byte];
  }
  return hex4(crc);
}

function crc16OfBytes(bytes: Uint8Array): string {
  let crc = 0xffff;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[(crc >> 8) ^ byte];
  return hex4(crc);
}

const hex4 = (crc: number) => crc.toString(16).toUpperCase().padStart(4, '0');

function tlv(id: string, value: string): string {
  if (value.length === 0 || value.length > 99) throw new RangeError(`BR Code field ${id} must hold 1..99 chars, got ${value.length}`);
  return id + String(value.length).padStart(2, '0') + value;
}

/**
 * Names and cities must be plain ASCII in the BR Code: diacritics are stripped ("São" → "Sao"),
 * anything else outside printable ASCII is dropped, whitespace is collapsed, then it is cut to `max`.
 */
export function toBrCodeText(s: string, max: number): string {
  // A receiver's name and city come back on every charge it answers: normalising them each
  // time was most of the BR Code's cost. The memo is bounded (names are per receiver, few).
  const key = `${max}\u0000${s}`;
  let text = brCodeTexts.get(key);
  if (text === undefined) {
    if (brCodeTexts.size >= BR_CODE_TEXT_MEMO) brCodeTexts.clear();
    brCodeTexts.set(key, (text = asciiText(s, max)));
  }
  return text;
}

const BR_CODE_TEXT_MEMO = 1024;
const brCodeTexts = new Map<string, string>();

function asciiText(s: string, max: number): string {
  const ascii = s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  return ascii.slice(0, max).trim();
}

/**
 * The payload location as the API answers it (`location`, `loc.location`) and as the BR Code
 * carries it (field 26, sub-field 25): scheme-less, `host/path`, like every official example.
 * Charges stored by older versions hold `https://host/path`; the scheme is dropped here, so
 * every response is derived from this one function and old and new charges answer alike.
 */
export function payloadLocation(stored: string): string {
  const bare = stored.replace(/^https:\/\//i, '');
  if (bare.includes('://')) throw new RangeError(`location must be an https URL or scheme-less, got "${stored}"`);
  if (!PRINTABLE_ASCII.test(bare) || bare.includes(' ')) throw new RangeError(`location must be printable ASCII without spaces`);
  return bare;
}

/** The "Pix Copia e Cola" string for a dynamic charge whose amount lives in the payload at `location`. */
export function buildDynamicBrCode({ location, merchantName, merchantCity }: DynamicBrCodeInput): string {
  // A receiver registered before names needed ASCII (access/receiver.ts) still gets a payable BR
  // Code: the payer's bank shows the key's DICT name, and the signed payload the full one.
  const name = toBrCodeText(merchantName, MERCHANT_NAME_MAX) || 'RECEBEDOR';
  const city = toBrCodeText(merchantCity, MERCHANT_CITY_MAX) || 'BRASIL';
  const body =
    tlv('00', '01') + // payload format indicator
    tlv('01', '12') + // point of initiation: dynamic, single use
    tlv('26', tlv('00', PIX_GUI) + tlv('25', payloadLocation(location))) +
    tlv('52', '0000') + // merchant category code: not informed
    tlv('53', '986') + // currency: BRL
    tlv('58', 'BR') +
    tlv('59', name) +
    tlv('60', city) +
    tlv('62', tlv('05', '***')) + // txid "***": the payload carries the real one
    '6304';
  const code = body + crc16Ccitt(body);
  if (code.length > BR_CODE_MAX_LENGTH) throw new RangeError(`BR Code longer than ${BR_CODE_MAX_LENGTH} chars`);
  return code;
}

/** Splits a TLV sequence into a Map. Throws on bad ids/lengths, truncation or repeated ids. */
export function parseTlv(s: string): Map<string, string> {
  const fields = new Map<string, string>();
  let i = 0;
  while (i < s.length) {
    const header = s.slice(i, i + 4);
    if (!/^\d{4}$/.test(header)) throw new SyntaxError(`malformed TLV header at offset ${i}`);
    const id = header.slice(0, 2);
    const len = Number(header.slice(2));
    if (i + 4 + len > s.length) throw new SyntaxError(`TLV field ${id} at offset ${i} runs past the end`);
    if (fields.has(id)) throw new SyntaxError(`TLV field ${id} repeated`);
    fields.set(id, s.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return fields;
}

/**
 * Parses a BR Code. Structural damage (bad TLV, no trailing "6304XXXX") throws SyntaxError;
 * a well-formed code with the wrong checksum comes back with crcValid = false.
 */
export function parseBrCode(s: string): ParsedBrCode {
  if (typeof s !== 'string' || s.length < 8) throw new SyntaxError('BR Code too short');
  if (s.length > BR_CODE_MAX_LENGTH) throw new SyntaxError(`BR Code longer than ${BR_CODE_MAX_LENGTH} chars`);
  const fields = parseTlv(s);
  // Field 63 must be the last one parsed, so it sits exactly in the final 8 chars.
  const lastId = [...fields.keys()].pop();
  if (lastId !== '63' || !/^[0-9A-Fa-f]{4}$/.test(fields.get('63') ?? '')) {
    throw new SyntaxError('BR Code must end with the CRC field 6304XXXX');
  }
  const crcStart = s.length - 8;
  const crcValid = crc16Ccitt(s.slice(0, crcStart + 4)) === s.slice(crcStart + 4).toUpperCase();
  const account = fields.get('26');
  return { fields, crcValid, merchantAccount: account === undefined ? new Map() : parseTlv(account) };
}
