/**
 * One JSON request to an authorization server, with a timeout and a cap on the answer's size. The
 * cap is enforced while the body streams in: the request is aborted at the first byte past it, so
 * a huge (or endless) answer costs at most `maxBytes` of memory, never its whole length.
 */

/** The cap on an authorization server's answer (metadata, JWK Set, introspection). */
export const MAX_ANSWER_BYTES = 1 << 20;

export interface FetchJsonInit {
  timeoutMs: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Default MAX_ANSWER_BYTES. */
  maxBytes?: number;
}

export async function fetchJson(url: string, init: FetchJsonInit): Promise<Record<string, unknown>> {
  const maxBytes = init.maxBytes ?? MAX_ANSWER_BYTES;
  const abort = new AbortController();
  const signal = AbortSignal.any([abort.signal, AbortSignal.timeout(init.timeoutMs)]);
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { accept: 'application/json', ...init.headers },
    body: init.body,
    redirect: 'error',
    signal,
  });
  if (!res.ok) {
    abort.abort();
    throw new Error(`HTTP ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    abort.abort();
    throw new Error(`answer too large (content-length ${declared} > ${maxBytes} bytes)`);
  }
  const text = await readCapped(res, maxBytes, abort);
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('answer is not a JSON object');
  }
  return value as Record<string, unknown>;
}

/** The body as text, read chunk by chunk; past `maxBytes` the request is aborted and this throws. */
async function readCapped(res: Response, maxBytes: number, abort: AbortController): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      abort.abort();
      await reader.cancel().catch(() => undefined);
      throw new Error(`answer too large (over ${maxBytes} bytes)`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}
