/**
 * Where a webhook may post (docs/notifications.md, "Safety of the target"): a GM or a player
 * names the URL, so the service must not be made to post into its own network (SSRF).
 *
 * - `https` only. With WEBHOOK_ALLOW_PRIVATE=1, plain `http` is also taken, but only to a
 *   private, loopback or link-local address: it never leaves the LAN.
 * - Every address the host resolves to is checked (IPv4 and IPv6, an IPv4-mapped IPv6
 *   address as the IPv4 it carries), and the connection is made to a checked address (the
 *   check is the connection's own DNS lookup), so a host that answers a public address to
 *   the check and a private one to the connection (DNS rebinding) gets nowhere.
 * - Only globally routed unicast is public: private, loopback, link-local, carrier-grade
 *   NAT, unique-local, multicast, documentation, 6to4/Teredo and every other special range
 *   of ipaddr.js count as not public.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

/** Is this address on the public internet (globally routed unicast)? */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() turns an IPv4-mapped IPv6 address (::ffff:10.0.0.1) into the IPv4 it carries.
  const ip = ipaddr.process(address);
  return ip.range() === 'unicast';
}

export interface TargetRules {
  /** WEBHOOK_ALLOW_PRIVATE=1: private and loopback addresses (and plain http to them) are allowed. */
  allowPrivate: boolean;
}

export function allowPrivateFromEnv(): boolean {
  return process.env.WEBHOOK_ALLOW_PRIVATE === '1';
}

/**
 * The URL's own checks, without DNS (when the GM or a player adds it, and before each post):
 * a whole URL, https (or http when allowed), no user name or password in it, and, when the
 * host is written as an address, that address. Returns the parsed URL.
 */
export function checkUrl(raw: string, rules: TargetRules): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('not a whole URL: write it as https://host/path, as the chat service gave it');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && rules.allowPrivate)) {
    throw new TargetRefused(`the URL must start with https:// (it starts with ${url.protocol}//)`);
  }
  if (url.username || url.password) throw new TargetRefused('the URL must not carry a user name or password');
  if (raw.length > 2000) throw new TargetRefused('the URL is longer than 2,000 characters');
  const host = literalHost(url);
  if (host !== null) checkAddresses([host], url, rules);
  return url;
}

/** The host when it is written as an IP address ([::1] without brackets), else null. */
function literalHost(url: URL): string | null {
  const h = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(h) ? h : null;
}

function checkAddresses(addresses: readonly string[], url: URL, rules: TargetRules): void {
  if (addresses.length === 0) throw new TargetRefused(`${url.hostname} has no address`);
  const inside = addresses.filter((a) => !isPublicAddress(a));
  if (inside.length > 0 && !rules.allowPrivate) {
    throw new TargetRefused(`${url.hostname} resolves to ${inside.join(', ')}, a private, loopback or link-local address: webhooks go to the public internet only (WEBHOOK_ALLOW_PRIVATE=1 allows a LAN)`);
  }
  if (url.protocol === 'http:' && inside.length < addresses.length) {
    throw new TargetRefused(`${url.hostname} is on the public internet: use https://`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup for the request (http.request's `lookup` option) that resolves every address
 * of the host and refuses them all unless every one passes.
 */
export function checkedLookup(url: URL, rules: TargetRules) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      try {
        checkAddresses(addresses.map((a) => a.address), url, rules);
      } catch (refused) {
        return callback(refused as NodeJS.ErrnoException, []);
      }
      if (options?.all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}
