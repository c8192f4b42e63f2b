/**
 * One POST to a webhook: to a checked address only (./address.ts), within a timeout, and
 * reading at most a few kilobytes of the answer (a receiver cannot make the worker hold a
 * large or endless body). Redirects are not followed: a 3xx is a failed try.
 */
import http from 'node:http';
import https from 'node:https';
import { checkUrl, checkedLookup, type TargetRules } from './address.js';

export interface PostResult {
  status: number;
  /** The first bytes of the answer (for the GM's mail page, on a failure). */
  answer: string;
}

export interface PostOptions extends TargetRules {
  /** Milliseconds for the whole exchange. Default 10 s. */
  timeoutMs?: number;
  /** Bytes of the answer read at most. Default 16 KiB. */
  maxAnswerBytes?: number;
  /** Extra CA certificates to trust (a LAN chat server's own CA; the tests' self-signed one). */
  ca?: string | Buffer;
}

const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 16 }), https: new https.Agent({ keepAlive: true, maxSockets: 16 }) };

export function postJson(target: string, body: string, headers: Record<string, string>, opts: PostOptions): Promise<PostResult> {
  const url = checkUrl(target, opts);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxBytes = opts.maxAnswerBytes ?? 16 * 1024;
  const secure = url.protocol === 'https:';
  const request = secure ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      // A CA of our own needs its own connections (the shared agent's would not carry it).
      agent: opts.ca ? undefined : secure ? agents.https : agents.http,
      ...(opts.ca ? { ca: opts.ca } : {}),
      lookup: checkedLookup(url, opts) as never,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'steady-as-she-goes-webhooks', ...headers },
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => resolve({ status: res.statusCode ?? 0, answer: Buffer.concat(chunks).toString('utf8').slice(0, 500) });
      res.on('data', (c: Buffer) => {
        if (size >= maxBytes) return;
        chunks.push(c.subarray(0, maxBytes - size));
        size += c.length;
        // Enough read: the status is what counts; the rest is not waited for.
        if (size >= maxBytes) { done(); res.destroy(); }
      });
      res.on('end', done);
      res.on('error', (err) => (size >= maxBytes ? done() : reject(err)));
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
    req.end(body);
  });
}
