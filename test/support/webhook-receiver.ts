// A local webhook receiver: records every delivery (headers and raw body) per path and answers what each path is told to.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  origin: string;
  deliveries: Delivery[];
  /** The status a path answers with, per attempt number of a webhook-id (1-based); 200 unless set. */
  answer(path: string, status: (attempt: number) => number): void;
  /** Deliveries received at `path`. */
  at(path: string): Delivery[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const answers = new Map<string, (attempt: number) => number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const delivery = { path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      deliveries.push(delivery);
      const attempt = deliveries.filter(
        (d) => d.path === path && d.headers['webhook-id'] === req.headers['webhook-id'],
      ).length;
      res.statusCode = answers.get(path)?.(attempt) ?? 200;
      res.end(res.statusCode < 300 ? 'ok' : 'try again');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    deliveries,
    answer: (path, status) => answers.set(path, status),
    at: (path) => deliveries.filter((d) => d.path === path),
    close: () => new Promise((resolve) => server.close(() => resolve())),
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
