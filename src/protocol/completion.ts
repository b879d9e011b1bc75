/** `completion/complete`: what a client asks values for, and the answer. */

/** The prompt or resource template whose argument is being completed. */
export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export type CompleteRequest = {
  ref: CompletionReference;
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
};

export type CompleteResult = {
  values: string[];
  total?: number;
  hasMore?: boolean;
};
