import type { RunningApi } from './api-harness';

/** The batch once every request is decided (none EM_PROCESSAMENTO): its GET body. */
export async function settledBatch(api: RunningApi, id: string, timeoutMs = 30_000): Promise<any> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    const r = await api.request('GET', `/lotecobv/${id}`);
    if (r.status === 200 && r.body.cobsv.every((c: { status: string }) => c.status !== 'EM_PROCESSAMENTO')) return r.body;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`batch ${id} still processing after ${timeoutMs} ms`);
}
