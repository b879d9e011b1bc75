export type JsonSchemaValidation = { ok: true } | { ok: false; errors: string[] };

/** A JSON pointer as a reader writes it: `/address/city` → `address.city`, `/tags/0` → `tags[0]`. */
export function readablePath(pointer: string): string {
  let path = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path ? `.${segment}` : segment;
  }
  return path;
}
