/**
 * The client's address as the deployment trusts it: the socket's peer, or, when that peer is one of
 * `trustedProxies`, the right-most X-Forwarded-For entry that is not itself a trusted proxy (entries
 * to its left were written by the client and prove nothing). Undefined where the server gives no
 * socket address.
 */
import { header, type HeaderBag } from './http-exchange';

export function clientAddressOf(
  remoteAddress: string | undefined,
  headers: HeaderBag,
  trustedProxies: readonly string[] | undefined,
): string | undefined {
  if (remoteAddress === undefined || !trustedProxies?.includes(remoteAddress)) return remoteAddress;
  const forwarded = header(headers, 'x-forwarded-for');
  if (forwarded === undefined) return remoteAddress;
  const hops = forwarded.split(',').map((h) => h.trim());
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (hop === '') break;
    if (!trustedProxies.includes(hop)) return hop;
  }
  return remoteAddress;
}
