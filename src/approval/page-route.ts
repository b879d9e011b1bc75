/**
 * GET shows an approval page, POST records its answer. Refused, each with a clear page and nothing
 * recorded: an unknown, expired, tampered or used link; a cross-site POST; a body that is too large,
 * not a form, or does not pass the question's own check (shown again with the reason).
 */
import type { PageRequest, PageResponse } from '../context/approval-pages';
import type { PageQuestion } from '../context/ask-fallback';
import type { ApprovalFlowRecord, StoredPage } from './approval-flows';
import { readForm } from './page-form';
import { answeredPage, questionPage, refusalPage, type FormSchema, type RenderedPage } from './page-html';

type Headers = PageRequest['headers'];

/** What a page link opens to, or why it does not. `check` is known only where the question was asked. */
export type OpenedPage =
  | { ok: true; flow: ApprovalFlowRecord; page: StoredPage; check?: PageQuestion['check'] }
  | { ok: false; status: 400 | 404 | 410; reason: string };

/** What the page route uses of the desk. */
export interface PageDesk {
  openPage(token: string): Promise<OpenedPage>;
  recordAnswer(flow: ApprovalFlowRecord, page: StoredPage, kept: unknown): Promise<boolean>;
}

/** A form answer is a few hundred bytes: anything near this is not one. */
export const MAX_PAGE_BODY_BYTES = 16 * 1024;

export async function answerApprovalPage(
  desk: PageDesk,
  req: PageRequest,
  res: PageResponse,
  log?: (message: string, detail: Record<string, unknown>) => void,
): Promise<void> {
  const page = await respond(desk, req, log);
  res.send(page.status, page.headers, page.body);
}

async function respond(
  desk: PageDesk,
  req: PageRequest,
  log?: (message: string, detail: Record<string, unknown>) => void,
): Promise<RenderedPage> {
  const refuse = (status: number, reason: string): RenderedPage => {
    log?.('approval page refused', { status, reason });
    return refusalPage(status, reason);
  };
  if (req.method !== 'GET' && req.method !== 'POST') {
    const page = refuse(405, 'Open this link in a browser.');
    return { ...page, headers: { ...page.headers, Allow: 'GET, POST' } };
  }
  if (req.method === 'POST') {
    const crossSite = crossSiteReason(req.headers);
    if (crossSite) return refuse(403, crossSite);
    if (!first(req.headers['content-type'])?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      return refuse(415, 'The answer must be sent by the form on this page.');
    }
  }
  const opened = await desk.openPage(req.token);
  if (!opened.ok) return refuse(opened.status, opened.reason);
  const { flow, page, check } = opened;
  const request = page.request.params as { message?: unknown; requestedSchema?: FormSchema };
  const view = {
    tool: flow.tool,
    args: flow.args,
    message: typeof request.message === 'string' ? request.message : '',
    schema: request.requestedSchema ?? {},
  };
  if (req.method === 'GET') return questionPage(view);
  const body = await req.readBody(MAX_PAGE_BODY_BYTES);
  if (!body.ok) {
    // The rest of a refused body is not read here: the connection closes after the page (lingering, so a
    // client still sending reads it), instead of staying open behind a paused request.
    const page = refuse(body.status === 413 ? 413 : 400, 'The form could not be read (too large or malformed).');
    return { ...page, headers: { ...page.headers, Connection: 'close' } };
  }
  const form = readForm(body.text, view.schema);
  if (!form.ok) return questionPage({ ...view, values: form.values, error: form.reason }, 400);
  // On another instance of a fleet the question's own check is not at hand: the form's schema was
  // checked here, and the continuing call decodes the answer again (a failing one gets a new page).
  const checked = check ? check(form.answer) : { ok: true as const, kept: form.answer };
  if (!checked.ok) {
    const values = form.answer.action === 'accept' ? stringValues(form.answer.content) : {};
    return questionPage({ ...view, values, error: `Please correct the form: ${checked.reason}` }, 422);
  }
  if (!(await desk.recordAnswer(flow, page, checked.kept))) {
    return refuse(410, 'This question was already answered; the link works once.');
  }
  return answeredPage(form.answer.action === 'accept');
}

/**
 * A browser says where a POST comes from: `Sec-Fetch-Site` (anything but same-origin, or none for a
 * typed URL, is refused) and `Origin` (must name this host). A non-browser client sends neither.
 */
function crossSiteReason(headers: Headers): string | undefined {
  const site = first(headers['sec-fetch-site']);
  // A browser that sends Sec-Fetch-Site is believed on it alone; older ones are judged by Origin.
  if (site !== undefined) {
    return site === 'same-origin' || site === 'none' ? undefined : 'Answers from another site are refused.';
  }
  const origin = first(headers.origin);
  if (origin === undefined) return undefined;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  return host !== undefined && host === first(headers.host) ? undefined : 'Answers from another site are refused.';
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function stringValues(content: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(content).map(([k, v]) => [k, String(v)]));
}
