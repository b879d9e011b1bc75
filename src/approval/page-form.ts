/**
 * A submitted approval form (`application/x-www-form-urlencoded`) read against the question's
 * schema into an elicitation answer: `{ action, content }`, each field typed as the schema says.
 * Unknown fields are refused rather than ignored; the ask's own check (the DTO) runs after this.
 */
import { optionsOf, type FormSchema } from './page-html';

export type ReadForm =
  | { ok: true; answer: { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } }
  | { ok: false; reason: string; values: Record<string, string> };

/** At most this many fields in a body (the schema has far fewer): bounds the work before any check. */
const MAX_FIELDS = 64;

export function readForm(body: string, schema: FormSchema): ReadForm {
  const params = new URLSearchParams(body);
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  const props = schema.properties ?? {};
  let count = 0;
  let action: string | undefined;
  for (const [name, value] of params) {
    if (++count > MAX_FIELDS) return { ok: false, reason: 'The form has too many fields.', values: {} };
    if (name === '_action') action = value;
    else if (!Object.prototype.hasOwnProperty.call(props, name)) {
      return { ok: false, reason: `The form has a field this question does not ask: ${name}.`, values };
    } else if (name in values) return { ok: false, reason: `The field ${name} was sent twice.`, values };
    else values[name] = value;
  }
  if (action === 'decline') return { ok: true, answer: { action: 'decline' } };
  if (action !== 'accept') return { ok: false, reason: 'Choose Submit or Decline.', values };
  const content: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(props)) {
    const raw = values[name];
    if (f.type === 'boolean') {
      content[name] = raw === 'true';
      continue;
    }
    if (raw === undefined || raw === '') continue; // absent: the ask's check says whether it was required
    if (f.type === 'number' || f.type === 'integer') {
      const n = Number(raw);
      if (!Number.isFinite(n) || (f.type === 'integer' && !Number.isInteger(n))) {
        return { ok: false, reason: `${f.title ?? name} must be ${f.type === 'integer' ? 'a whole number' : 'a number'}.`, values };
      }
      content[name] = n;
      continue;
    }
    const choices = optionsOf(f);
    if (choices && !choices.some(([v]) => v === raw)) {
      return { ok: false, reason: `${f.title ?? name} must be one of the choices.`, values };
    }
    content[name] = raw;
  }
  return { ok: true, answer: { action: 'accept', content } };
}
