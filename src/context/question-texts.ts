/**
 * The texts of the questions this process sent lately, by fingerprint. A 2026 flow replays its handler on
 * every round, so the question asked in round 1 is rendered again in round 2 and must be fingerprinted
 * again to see whether it changed. When the token says which fingerprint to expect and this process sent
 * that question, comparing the two texts gives the same answer as hashing the new one, for a fraction of
 * the cost (issue 34: a one-shot SHA-256 of a question is ≈ 11 k instructions, the comparison ≈ 0.2 k).
 *
 * Only a text equal, character for character, to the one that was hashed is given its fingerprint; any
 * other text is hashed, so a changed question is detected exactly as before. A miss (another instance's
 * flow, an entry let go) only costs the hash. Bounded by count and by characters: when full, all are let go. The
 * texts are the server's own questions, so they stay in memory as the flow's round did.
 */
import type { InputRequest } from '../protocol/types';
import { askFingerprint } from './asks';

export const MAX_KEPT_QUESTIONS = 1024;
/** Characters kept in all; a longer question is never kept (it is hashed each round, as before). */
export const MAX_KEPT_QUESTION_CHARS = 512 * 1024;
const MAX_QUESTION_CHARS = 16 * 1024;

const textsByFingerprint = new Map<string, string>();
let keptChars = 0;

/**
 * The fingerprint of `request`, whose JSON text is `text`; `expected`, when given, is the fingerprint the
 * flow recorded for this key (read from its authenticated token), tried first.
 */
export function questionFingerprint(request: InputRequest, text: string, expected?: string): string {
  if (expected !== undefined && textsByFingerprint.get(expected) === text) return expected;
  return askFingerprint(request, text);
}

/** `text` was sent under `fingerprint` (its hash): a later round that renders it again is spared the hash. */
export function rememberQuestion(fingerprint: string, text: string): void {
  if (text.length > MAX_QUESTION_CHARS) return;
  const kept = textsByFingerprint.get(fingerprint);
  if (kept === text) return; // asked again (another flow, or a later round): already kept
  if (kept !== undefined) keptChars -= kept.length;
  // Full: all go at once (no per-entry eviction to pay for); the rounds that come back to them hash again.
  if (textsByFingerprint.size >= MAX_KEPT_QUESTIONS || keptChars + text.length > MAX_KEPT_QUESTION_CHARS) {
    textsByFingerprint.clear();
    keptChars = 0;
  }
  textsByFingerprint.set(fingerprint, text);
  keptChars += text.length;
}

/** For tests: how many questions and characters are kept. */
export function keptQuestions(): { count: number; chars: number } {
  return { count: textsByFingerprint.size, chars: keptChars };
}
