/**
 * Receivers (tenants) are named by a short id; it is part of every stream and read-model key of
 * tenant data, so one receiver's txid never meets another's.
 */
export const RECEBEDOR_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** The receiver local mode seeds and the sandbox uses. */
export const LOCAL_RECEBEDOR_ID = 'local';

/** `{recebedorId}/{localId}`: unambiguous because a receiver id never contains '/'. */
export const tenantKey = (recebedorId: string, localId: string) => `${recebedorId}/${localId}`;

export function splitTenantKey(key: string): { recebedorId: string; localId: string } {
  const slash = key.indexOf('/');
  return { recebedorId: key.slice(0, slash), localId: key.slice(slash + 1) };
}
