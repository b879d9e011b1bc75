/**
 * Fetching what sign-in reads (metadata, registration and token responses) defensively: a time
 * limit, a size limit on the body, JSON objects only, and redirects followed only within the
 * origin asked (a metadata URL must not bounce the client to another host).
 */
import { AuthDiscoveryError } from './auth-errors';

export const MAX_AUTH_BODY_BYTES = 256 * 1024;
const MAX_REDIRECTS = 3;

export interface BoundedFetchOptions {
  fetch: typeof fetch;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface JsonReply {
  status: number;
  headers: Headers;
  /** The JSON object, or undefined when the body was not a JSON object. */
  body?: Record<string, unknown>;
  url: string;
}

/** GET or POST with same-origin redirects only; throws AuthDiscoveryError on a cross-origin redirect. */
export async function boundedFetch(url: string, init: RequestInit, options: BoundedFetchOptions): Promise<Response> {
  const signal = options.signal
    ? AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)])
    : AbortSignal.timeout(options.timeoutMs);
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await options.fetch(current, { ...init, redirect: 'manual', signal });
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return res;
    await res.body?.cancel().catch(() => undefined);
    const next = new URL(location, current);
    if (next.origin !== new URL(current).origin)
      throw new AuthDiscoveryError(`${originOf(url)} redirected to another origin (${next.origin}); not followed.`);
    if (hop >= MAX_REDIRECTS) throw new AuthDiscoveryError(`${originOf(url)}: too many redirects.`);
    current = next.href;
  }
}

/** Reads at most `limit` bytes; more is an error (the body is cancelled). */
export async function readLimited(res: Response, limit = MAX_AUTH_BODY_BYTES): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel().catch(() => undefined);
    throw new AuthDiscoveryError(`Response from ${originOf(res.url)} is larger than ${limit} bytes.`);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new AuthDiscoveryError(`Response from ${originOf(res.url)} is larger than ${limit} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A bounded fetch whose body is parsed as a JSON object (undefined when it is not one). */
export async function fetchJson(url: string, init: RequestInit, options: BoundedFetchOptions): Promise<JsonReply> {
  const res = await boundedFetch(url, init, options);
  const text = await readLimited(res);
  let body: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    if (isObject) body = parsed as Record<string, unknown>;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, url };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the server';
  }
}
