// A local webhook receiver: records every delivery (headers and raw body) per path and answers what each path is told to.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status answered; null while the request is held open (`'hold'`). */
  status: number | null;
}

/** A status to answer, or `'hold'`: never answer, keep the connection open until the receiver closes. */
export type Answer = number | 'hold';

export interface WebhookReceiver {
  origin: string;
  deliveries: Delivery[];
  /** What a path answers, per attempt number of a webhook-id (1-based); 200 unless set. */
  answer(path: string, status: (attempt: number) => Answer): void;
  /** Deliveries received at `path`. */
  at(path: string): Delivery[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const answers = new Map<string, (attempt: number) => Answer>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const delivery: Delivery = {
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        status: null,
      };
      deliveries.push(delivery);
      const attempt = deliveries.filter(
        (d) => d.path === path && d.headers['webhook-id'] === req.headers['webhook-id'],
      ).length;
      const answer = answers.get(path)?.(attempt) ?? 200;
      if (answer === 'hold') return;
      delivery.status = answer;
      res.statusCode = answer;
      res.end(answer < 300 ? 'ok' : 'try again');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    deliveries,
    answer: (path, status) => answers.set(path, status),
    at: (path) => deliveries.filter((d) => d.path === path),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Verifies with the standardwebhooks package (not our signer); throws when the signature does not match `secret`. */
export function verifyDelivery(
  delivery: Delivery,
  secret: string,
): { type: string; timestamp: string; data: Record<string, unknown> } {
  const headers = {
    'webhook-id': String(delivery.headers['webhook-id']),
    'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
    'webhook-signature': String(delivery.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(delivery.body, headers) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };
}
