import { isDomainError, PIX_SCOPES, type Recebedor } from '@pix/domain';
import { StartupError } from '@pix/observability';
import { deterministicId } from '../shared/deterministic-id';
import { loadChave, loadCliente, loadRecebedor, onRecebedor, type AccessContext } from './access-streams';
import type { ChargesOnKey } from './admin/key-charges';
import { addKey, createClient, createReceiver, removeKey, rotateClientSecret, setClientScopes } from './admin/operations';
import { verifySecret } from './secrets';

export interface LocalSeed {
  recebedor: Recebedor;
  clientId: string;
  clientSecret: string;
}

/**
 * Local mode's receiver and client, made to match the configuration at every start-up. What
 * already matches is left alone, and event ids are derived from stream and revision, so a
 * restart appends nothing. Returns what it changed (for the log).
 */
export async function seedLocalAccess(base: Omit<AccessContext, 'eventId'> & { charges: ChargesOnKey }, seed: LocalSeed): Promise<string[]> {
  const ctx: AccessContext & { charges: ChargesOnKey } = { ...base, eventId: (stream, revision) => deterministicId(`local-seed:${stream}:${revision}`) };
  const changes: string[] = [];
  const { id, chaves, ...dados } = seed.recebedor;
  const before = await loadRecebedor(ctx.store, id);
  if (!before.exists) {
    await createReceiver(ctx, id, dados);
    changes.push(`receiver "${id}" registered`);
  } else {
    const { events } = await onRecebedor(ctx, id, (now) => ({ type: 'AtualizarRecebedor', recebedorId: id, dados, now }));
    if (events.length > 0) changes.push(`receiver "${id}" data updated from LOCAL_RECEIVER_*`);
  }
  const linked = before.exists ? before.chaves : [];
  for (const chave of chaves.filter((k) => !linked.includes(k))) {
    await addKey(ctx, id, chave).catch(async (error: unknown) => {
      // A key given to another receiver with `npm run admin`: a configuration conflict, said in one line (was a stack).
      if (!isDomainError(error) || error.kind !== 'ChaveJaVinculada') throw error;
      const { dono } = await loadChave(ctx.store, chave);
      throw new StartupError(
        `LOCAL_PIX_KEY: the Pix key ${chave} belongs to receiver "${dono}". Fix: drop it from LOCAL_PIX_KEY, or release it first (npm run admin -- key remove --receiver ${dono} --key ${chave})`,
      );
    });
    changes.push(`key ${chave} linked`);
  }
  // Keys dropped from LOCAL_PIX_KEY are released, so local mode matches its configuration.
  for (const chave of linked.filter((k) => !chaves.includes(k))) {
    const { cobrancasRemovidas } = await removeKey(ctx, id, chave);
    changes.push(`key ${chave} unlinked (${cobrancasRemovidas} ATIVA charges on it removed: REMOVIDA_PELO_PSP)`);
  }
  const client = await loadCliente(ctx.store, seed.clientId);
  if (!client.exists) {
    await createClient(ctx, { recebedorId: id, clientId: seed.clientId, scopes: [...PIX_SCOPES], secret: seed.clientSecret });
    changes.push(`client "${seed.clientId}" created`);
  } else if (client.recebedorId !== id) {
    throw new StartupError(`LOCAL_CLIENT_ID: "${seed.clientId}" is a client of receiver "${client.recebedorId}". Fix: choose another LOCAL_CLIENT_ID`);
  } else if (!client.enabled) {
    changes.push(`client "${seed.clientId}" is disabled (left so)`);
  } else {
    if (!(await verifySecret(seed.clientSecret, client.secretHash))) {
      await rotateClientSecret(ctx, seed.clientId, seed.clientSecret);
      changes.push(`client "${seed.clientId}" secret rotated to LOCAL_CLIENT_SECRET`);
    }
    // The sandbox client has every scope, including scopes added by a newer version (payloadlocation.*).
    if (client.scopes.join(' ') !== PIX_SCOPES.join(' ')) {
      await setClientScopes(ctx, seed.clientId, [...PIX_SCOPES]);
      changes.push(`client "${seed.clientId}" now has every scope`);
    }
  }
  return changes;
}
