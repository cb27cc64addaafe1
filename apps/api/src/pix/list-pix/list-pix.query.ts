/** GET /pix: received Pix in a period, with the contract's filters. */
export class ListPixQuery {
  constructor(readonly query: Record<string, string | string[] | undefined>) {}
}
