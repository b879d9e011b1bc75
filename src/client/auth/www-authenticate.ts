/**
 * `WWW-Authenticate` parsing (RFC 9110 §11.6.1): the `Bearer` challenge's parameters, which carry
 * what sign-in needs (RFC 9728 `resource_metadata`, RFC 6750 `scope` and `error`). A header that is
 * too long or malformed yields no parameters rather than an error: discovery falls back.
 */

/** The longest header read; anything longer is ignored (a hostile server, not a challenge). */
export const MAX_CHALLENGE_LENGTH = 8192;

export interface BearerChallenge {
  resourceMetadata?: string;
  scope?: string;
  error?: string;
  errorDescription?: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

/** The parameters of the first `Bearer` (or `DPoP`) challenge in a `WWW-Authenticate` value. */
export function parseBearerChallenge(header: string | null | undefined): BearerChallenge {
  if (!header || header.length > MAX_CHALLENGE_LENGTH) return {};
  for (const challenge of parseChallenges(header)) {
    const scheme = challenge.scheme.toLowerCase();
    if (scheme !== 'bearer' && scheme !== 'dpop') continue;
    const p = challenge.params;
    const out: BearerChallenge = {};
    if (p.resource_metadata !== undefined) out.resourceMetadata = p.resource_metadata;
    if (p.scope !== undefined) out.scope = p.scope;
    if (p.error !== undefined) out.error = p.error;
    if (p.error_description !== undefined) out.errorDescription = p.error_description;
    return out;
  }
  return {};
}

interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/** Every challenge in the header, each with its auth-params (token68 forms are skipped). */
export function parseChallenges(header: string): Challenge[] {
  const out: Challenge[] = [];
  let rest = header.trim();
  let current: Challenge | undefined;
  while (rest.length > 0) {
    rest = rest.replace(/^[\s,]+/, '');
    const name = TOKEN.exec(rest)?.[0];
    if (!name) break;
    rest = rest.slice(name.length);
    const afterSpace = rest.replace(/^\s+/, '');
    if (afterSpace.startsWith('=') && current && !afterSpace.startsWith('==')) {
      const value = readValue(afterSpace.slice(1).replace(/^\s+/, ''));
      if (!value) break;
      const key = name.toLowerCase();
      if (!(key in current.params)) current.params[key] = value.value;
      rest = value.rest;
      continue;
    }
    current = { scheme: name, params: Object.create(null) as Record<string, string> };
    out.push(current);
    rest = afterSpace;
    // A token68 credential after the scheme: skip it.
    const token68 = /^[A-Za-z0-9\-._~+/]+=*(?=\s*(,|$))/.exec(rest);
    if (token68 && !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+\s*=[^=]/.test(rest)) rest = rest.slice(token68[0].length);
  }
  return out;
}

function readValue(text: string): { value: string; rest: string } | undefined {
  if (text.startsWith('"')) {
    let value = '';
    for (let i = 1; i < text.length; i++) {
      const c = text[i]!;
      if (c === '\\' && i + 1 < text.length) value += text[++i];
      else if (c === '"') return { value, rest: text.slice(i + 1) };
      else value += c;
    }
    return undefined; // unterminated
  }
  const token = /^[^\s,]+/.exec(text)?.[0];
  return token === undefined ? undefined : { value: token, rest: text.slice(token.length) };
}
