// A TCP link a test can cut and mend (the private redis-server and PostgreSQL are in scripts/support/private-services.ts).
import { createServer, connect, type Server, type Socket } from 'node:net';
import { freePort } from '../../scripts/support/private-services.js';

/** Forwards 127.0.0.1:<port> to a target; `cut()` drops every connection and refuses new ones until `mend()`. */
export interface CuttableLink {
  port: number;
  cut(): Promise<void>;
  mend(): Promise<void>;
  close(): Promise<void>;
}

export async function cuttableLink(targetHost: string, targetPort: number): Promise<CuttableLink> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const open = async () => {
    if (server) return;
    server = createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => sockets.delete(socket));
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
  };
  const cut = async () => {
    const closing = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise((resolve) => closing.close(resolve));
  };
  await open();
  return { port, cut, mend: open, close: cut };
}
