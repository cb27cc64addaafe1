// Fixed-date state and municipal holidays a payer's PSP may have closed for, found from the IBGE
// municipality code (`codMun`, 7 digits, the first two the state's code) a payer's PSP sends. The
// BCB publishes no official list (bacen/pix-api #225): this table is a starting point, not a
// complete one; a PSP with its own list passes a BusinessCalendar to amountDue instead. Movable
// local holidays are not listed. Entries are "MM-DD"; the law that makes each one a holiday is
// noted beside it.

/** The 27 federative units' IBGE codes: the first two digits of every municipality's code. */
const UF_CODES = new Set(['11', '12', '13', '14', '15', '16', '17', '21', '22', '23', '24', '25', '26', '27', '28', '29', '31', '32', '33', '35', '41', '42', '43', '50', '51', '52', '53']);

/** State holidays, by the state's IBGE code: every municipality of the state keeps them. */
const STATE: Readonly<Record<string, readonly string[]>> = {
  // São Paulo: Revolução Constitucionalista (Lei estadual 9.497/1997).
  '35': ['07-09'],
  // Rio de Janeiro: São Jorge (Lei estadual 5.198/2008); Zumbi dos Palmares (Lei estadual
  // 4.007/2002, national since 2024).
  '33': ['04-23', '11-20'],
  // Rio Grande do Sul: Revolução Farroupilha (state).
  '43': ['09-20'],
  // Distrito Federal: Dia do Evangélico (Lei distrital 963/1995).
  '53': ['11-30'],
};

/** Municipal holidays, by the municipality's IBGE code. */
const MUNICIPAL: Readonly<Record<string, readonly string[]>> = {
  // São Paulo: city anniversary; Consciência Negra (Lei municipal 13.707/2004, national since 2024).
  '3550308': ['01-25', '11-20'],
  // Rio de Janeiro: São Sebastião.
  '3304557': ['01-20'],
  // Belo Horizonte: Assunção de Nossa Senhora and Imaculada Conceição.
  '3106200': ['08-15', '12-08'],
  // Porto Alegre: Nossa Senhora dos Navegantes.
  '4314902': ['02-02'],
};

const own = (table: Readonly<Record<string, readonly string[]>>, key: string): readonly string[] => (Object.prototype.hasOwnProperty.call(table, key) ? table[key] : []);

/**
 * Whether `codMun` can be an IBGE municipality code: 7 digits whose first two are a state's
 * code. The check digit is not verified: a few real municipalities' codes do not follow it, and
 * no code of a real municipality may be refused (its payers could not pay).
 */
export const isIbgeMunicipalityCode = (codMun: string): boolean => /^\d{7}$/.test(codMun) && UF_CODES.has(codMun.slice(0, 2));

/** "MM-DD" holidays of the municipality and of its state beyond the national ones; [] when unknown. */
export function municipalHolidays(codMun: string): readonly string[] {
  const state = own(STATE, codMun.slice(0, 2));
  const city = own(MUNICIPAL, codMun);
  return city.length === 0 ? state : [...state, ...city];
}

/** The municipality codes with holidays of their own in the table, for documentation and tests. */
export const KNOWN_MUNICIPALITIES: readonly string[] = Object.keys(MUNICIPAL);

/**
 * One code for each calendar the table makes beyond the national one: each state's (its code
 * followed by zeros, a municipality without holidays of its own) and each listed municipality's.
 * A check that must hold for every payer, wherever they are, walks these.
 */
export const DISTINCT_LOCAL_CALENDARS: readonly string[] = [...Object.keys(STATE).map((uf) => `${uf}00000`), ...KNOWN_MUNICIPALITIES];
