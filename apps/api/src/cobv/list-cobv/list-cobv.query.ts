/** GET /cobv: charges created in a period, filtered and paginated. */
export class ListCobVQuery {
  constructor(readonly query: Record<string, string | string[] | undefined>) {}
}
