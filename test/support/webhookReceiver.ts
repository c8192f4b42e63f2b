/**
 * A real HTTP (or HTTPS) receiver on loopback for the webhook tests and the bench: keeps
 * every POST (headers and raw body); `answer` decides each reply (status, body, delay).
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ReceivedPost {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status?: number;
  body?: string;
  /** Milliseconds before answering. */
  delayMs?: number;
  /** Never answer (the request hangs until the client gives up). */
  hang?: boolean;
}

export class WebhookReceiver {
  posts: ReceivedPost[] = [];
  answer: (post: ReceivedPost) => Answer = () => ({ status: 204 });
  private server: http.Server | https.Server;
  port = 0;

  constructor(tls?: { key: string; cert: string }) {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const post = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.posts.push(post);
        const a = this.answer(post);
        if (a.hang) return;
        const send = () => { res.writeHead(a.status ?? 204); res.end(a.body ?? ''); };
        if (a.delayMs) setTimeout(send, a.delayMs); else send();
      });
    };
    this.server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path = '/hook'): string {
    return `${this.server instanceof https.Server ? 'https' : 'http'}://127.0.0.1:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections?.();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
