/** One JSON request to an authorization server, with a timeout and a cap on the answer's size. */

const MAX_ANSWER_BYTES = 1 << 20;

export async function fetchJson(
  url: string,
  init: { timeoutMs: number; method?: string; headers?: Record<string, string>; body?: string },
): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { accept: 'application/json', ...init.headers },
    body: init.body,
    redirect: 'error',
    signal: AbortSignal.timeout(init.timeoutMs),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const text = await res.text();
  if (text.length > MAX_ANSWER_BYTES) throw new Error('answer too large');
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('answer is not a JSON object');
  }
  return value as Record<string, unknown>;
}
