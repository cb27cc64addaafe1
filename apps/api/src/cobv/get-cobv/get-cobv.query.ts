/** GET /cobv/{txid}[?revisao=n]: the charge as it is, or as it was at revision n. */
export class GetCobVQuery {
  constructor(
    readonly txid: string,
    readonly revisao?: string,
  ) {}
}
