// Fixed-date municipal and state holidays of a few capitals, keyed by the IBGE municipality code
// (`codMun`, 7 digits) a payer's PSP sends. The BCB publishes no official list (bacen/pix-api #225):
// this table is a starting point, not a complete one; a PSP with its own list passes a
// BusinessCalendar to amountDue instead. Movable local holidays are not listed.
// Entries are "MM-DD"; the law that makes each one a holiday is noted beside it.
const TABLE: Readonly<Record<string, readonly string[]>> = {
  // São Paulo (SP): city anniversary (municipal); Revolução Constitucionalista
  // (Lei estadual 9.497/1997); Consciência Negra (Lei municipal 13.707/2004, national since 2024).
  '3550308': ['01-25', '07-09', '11-20'],
  // Rio de Janeiro (RJ): São Sebastião (municipal); São Jorge (Lei estadual 5.198/2008);
  // Zumbi dos Palmares (Lei estadual 4.007/2002, national since 2024).
  '3304557': ['01-20', '04-23', '11-20'],
  // Belo Horizonte (MG): Assunção de Nossa Senhora and Imaculada Conceição (municipal).
  '3106200': ['08-15', '12-08'],
  // Porto Alegre (RS): Nossa Senhora dos Navegantes (municipal); Revolução Farroupilha (state).
  '4314902': ['02-02', '09-20'],
  // Brasília (DF): Dia do Evangélico (Lei distrital 963/1995).
  '5300108': ['11-30'],
};

/** "MM-DD" holidays of the municipality (and its state) beyond the national ones; [] when unknown. */
export function municipalHolidays(codMun: string): readonly string[] {
  return Object.prototype.hasOwnProperty.call(TABLE, codMun) ? TABLE[codMun] : [];
}

/** The codes the built-in table knows, for documentation and tests. */
export const KNOWN_MUNICIPALITIES: readonly string[] = Object.keys(TABLE);
