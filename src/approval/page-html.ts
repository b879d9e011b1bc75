/**
 * The approval page as HTML: the tool, its arguments and the question, and a form rendered from
 * the question's schema (the elicitation subset: strings, numbers, booleans, enums). No script;
 * one inline style allowed by a per-response nonce; every value escaped.
 */
import { randomBytes } from 'node:crypto';

export interface PageView {
  tool: string;
  args: Record<string, unknown>;
  message: string;
  schema: FormSchema;
  /** Values to show again after a refused submission, and why it was refused. */
  values?: Record<string, string>;
  error?: string;
}

export interface FormSchema {
  properties?: Record<string, FieldSchema>;
  required?: string[];
}

export interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  enumNames?: string[];
  oneOf?: { const?: unknown; title?: string }[];
  format?: string;
  default?: unknown;
}

export interface RenderedPage {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const STYLE = `*{box-sizing:border-box}
body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.3rem}pre{background:#f4f4f4;padding:.75rem;overflow:auto;white-space:pre-wrap}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}small{display:block;color:#555}
input[type=text],input[type=email],input[type=number],select{width:100%;padding:.4rem;font:inherit}
.error{background:#fde8e8;border:1px solid #c33;padding:.75rem;margin:1rem 0}
.done{background:#e8f6ea;border:1px solid #2a7;padding:.75rem}
button{font:inherit;padding:.5rem 1rem;margin:1rem .5rem 0 0}`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Every page: no script at all, no framing, no referrer to other sites (the link is the secret), no cache. */
function pageHeaders(nonce: string): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    // same-origin, not no-referrer: with no-referrer a browser posts the form with `Origin: null`.
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}

function document(title: string, main: string, status: number): RenderedPage {
  const nonce = randomBytes(16).toString('base64');
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style></head><body>${main}</body></html>`;
  return { status, headers: pageHeaders(nonce), body };
}

export function questionPage(view: PageView, status = 200): RenderedPage {
  const props = view.schema.properties ?? {};
  const required = new Set(view.schema.required ?? []);
  const fields = Object.entries(props)
    .map(([name, f]) => field(name, f, required.has(name), view.values?.[name]))
    .join('\n');
  const error = view.error ? `<div class="error" role="alert" id="error">${escapeHtml(view.error)}</div>` : '';
  const main = `<h1>Approval needed: ${escapeHtml(view.tool)}</h1>
<p id="question">${escapeHtml(view.message)}</p>
<p>Arguments of the call:</p><pre id="arguments">${escapeHtml(JSON.stringify(view.args, null, 2))}</pre>
${error}<form method="post" novalidate>
${fields}
<button type="submit" name="_action" value="accept" id="accept">Submit</button>
<button type="submit" name="_action" value="decline" id="decline">Decline</button>
</form>`;
  return document(`Approval needed: ${view.tool}`, main, status);
}

export function answeredPage(accepted: boolean): RenderedPage {
  const what = accepted ? 'Your answer was recorded.' : 'You declined.';
  return document(
    'Answer recorded',
    `<h1>Thank you</h1><p class="done" id="done">${what} Go back to your assistant: it continues when you tell it to.</p>`,
    200,
  );
}

export function refusalPage(status: number, reason: string): RenderedPage {
  return document('Approval link refused', `<h1>This page cannot be used</h1><p class="error" id="refused">${escapeHtml(reason)}</p>`, status);
}

function field(name: string, f: FieldSchema, required: boolean, value: string | undefined): string {
  const id = `f-${name}`;
  const title = escapeHtml(f.title ?? name) + (required ? ' *' : '');
  const help = f.description ? `<small>${escapeHtml(f.description)}</small>` : '';
  const current = value ?? (f.default === undefined ? '' : String(f.default));
  const n = escapeHtml(name);
  const choices = optionsOf(f);
  if (choices) {
    const opts = choices
      .map(([v, t]) => `<option value="${escapeHtml(v)}"${v === current ? ' selected' : ''}>${escapeHtml(t)}</option>`)
      .join('');
    return `<label for="${id}">${title}</label>${help}<select id="${id}" name="${n}">${required ? '' : '<option value=""></option>'}${opts}</select>`;
  }
  if (f.type === 'boolean') {
    const checked = value !== undefined ? value === 'true' : f.default === true;
    return `<label><input type="checkbox" id="${id}" name="${n}" value="true"${checked ? ' checked' : ''}> ${title}</label>${help}`;
  }
  const type = f.type === 'number' || f.type === 'integer' ? 'number' : f.format === 'email' ? 'email' : 'text';
  const step = f.type === 'number' ? ' step="any"' : '';
  return `<label for="${id}">${title}</label>${help}<input type="${type}"${step} id="${id}" name="${n}" value="${escapeHtml(current)}">`;
}

/** An enum field's choices as [value, title]. */
export function optionsOf(f: FieldSchema): [string, string][] | undefined {
  if (Array.isArray(f.oneOf)) return f.oneOf.map((o) => [String(o.const), o.title ?? String(o.const)]);
  if (Array.isArray(f.enum)) return f.enum.map((v, i) => [String(v), f.enumNames?.[i] ?? String(v)]);
  return undefined;
}
