/** GET /lotecobv: batches created in a period, paginated. */
export class ListLoteCobVQuery {
  constructor(readonly query: Record<string, string | string[] | undefined>) {}
}
