const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** RFC 3986 gen-delims and sub-delims, which `{+var}` and `{#var}` let through. */
const RESERVED = /^[:/?#[\]@!$&'()*+,;=]$/;
const utf8 = new TextEncoder();

/**
 * Percent-encodes a value the way RFC 6570 §3.2.1 asks: unreserved characters stay,
 * reserved characters and existing `%XX` triplets stay only when the operator allows reserved.
 * A lone surrogate becomes U+FFFD rather than throwing like encodeURIComponent would.
 */
export function encodeValue(value: string, allowReserved: boolean): string {
  let encoded = '';
  let index = 0;
  while (index < value.length) {
    const codePoint = value.codePointAt(index) as number;
    const char = String.fromCodePoint(codePoint);
    if (UNRESERVED.test(char) || (allowReserved && RESERVED.test(char))) {
      encoded += char;
    } else if (allowReserved && char === '%' && isHexDigit(value[index + 1]) && isHexDigit(value[index + 2])) {
      encoded += value.slice(index, index + 3);
      index += 3;
      continue;
    } else {
      for (const byte of utf8.encode(char)) encoded += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    index += char.length;
  }
  return encoded;
}

/** Decodes `%XX` sequences; undefined when they are not valid UTF-8, so a garbled URI does not match. */
export function decodeValue(text: string): string | undefined {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

export function isHexDigit(char: string | undefined): boolean {
  return char !== undefined && /^[0-9A-Fa-f]$/.test(char);
}
