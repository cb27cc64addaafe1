import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy a test can cut (the target "goes away": open connections reset, new ones refused)
 * and restore on the same port, or freeze (a black hole: connections stay open and new ones are
 * accepted, but nothing passes either way, as with a frozen server or a partitioned network).
 */
export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** From now on nothing passes on the open connections, for good, nor on those accepted until thaw. */
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let frozen = false;
  const holed = new WeakSet<Socket>();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        if (frozen) holed.add(client);
        // What arrives on a holed connection is dropped, both ways.
        client.on('data', (chunk: Buffer) => void (holed.has(client) || upstream.write(chunk)));
        upstream.on('data', (chunk: Buffer) => void (holed.has(client) || client.write(chunk)));
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server!.address() as { port: number }).port));
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });
  const port = await listen(0);
  const freeze = () => {
    frozen = true;
    for (const s of sockets) holed.add(s);
  };
  return { port, cut, restore: async () => void (await listen(port)), close: cut, freeze, thaw: () => void (frozen = false) };
}
