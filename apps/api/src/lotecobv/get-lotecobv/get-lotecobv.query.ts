/** GET /lotecobv/{id}: the batch and the status of each of its requests. */
export class GetLoteCobVQuery {
  constructor(readonly id: string) {}
}
