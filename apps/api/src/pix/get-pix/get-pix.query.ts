/** GET /pix/{e2eid}: one received Pix. */
export class GetPixQuery {
  constructor(readonly e2eid: string) {}
}
