/**
 * A tiny browser for page tests through app.inject: a cookie jar, GET and form POST, and
 * the CSRF token read off a page. One instance is one signed-in person, at an address of
 * their own (TEST-NET-2, never reached: inject sends nothing over the network), as the
 * sign-in limit is per address.
 */
import { expect } from 'vitest';
import type { App } from '../../src/http/app.js';

export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF token on the page');
  return m[1]!;
}

let people = 0;
function nextAddress(): string {
  people += 1;
  return `198.51.100.${people % 250 + 1}`;
}

export class PageBrowser {
  cookies = new Map<string, string>();
  constructor(private readonly app: () => App, readonly ip = nextAddress()) {}
  store(res: { headers: Record<string, unknown> }) {
    const raw = res.headers['set-cookie'];
    const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
    for (const c of list) {
      const [pair, ...attrs] = String(c).split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (attrs.some((a) => /max-age=0/i.test(a.trim()))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  async get(url: string) {
    const res = await this.app().inject({ method: 'GET', url, remoteAddress: this.ip, headers: { cookie: this.header() } });
    this.store(res);
    return res;
  }
  async post(url: string, form: Record<string, string>) {
    const res = await this.app().inject({
      method: 'POST', url, remoteAddress: this.ip, payload: new URLSearchParams(form).toString(),
      headers: { cookie: this.header(), 'content-type': 'application/x-www-form-urlencoded' },
    });
    this.store(res);
    return res;
  }
  /** GET a page and read its CSRF token. */
  async csrf(url: string): Promise<string> {
    const res = await this.get(url);
    expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
    return csrfOf(res.body);
  }
}
