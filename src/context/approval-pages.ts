/** What an HTTP transport needs of the approval pages: where they live, and an answer per request. */

type Headers = Readonly<Record<string, string | string[] | undefined>>;

export interface PageRequest {
  readonly method: string;
  /** The path segment after the pages' base path. */
  readonly token: string;
  readonly headers: Headers;
  readBody(limitBytes: number): Promise<{ ok: true; text: string } | { ok: false; status: number; reason: string }>;
}

export interface PageResponse {
  send(status: number, headers: Record<string, string>, body?: string): void;
}

export interface ApprovalPages {
  /** Where links point when no `asks.approvalBaseUrl` is set: serveHttp calls it once it listens. */
  setBaseUrl(url: string): void;
  answer(req: PageRequest, res: PageResponse): Promise<void>;
}

/** The pages sit under the MCP endpoint's own path: `<path>/approval/<token>`. */
export const APPROVAL_PATH_SEGMENT = '/approval/';
