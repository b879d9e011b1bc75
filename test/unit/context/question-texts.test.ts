// A replayed round renders its question again: when this process sent that very text under the fingerprint
// the flow recorded, it is compared instead of hashed; any other text is hashed, so a changed question is seen.
import { confirmAsk } from '../../../src/context/ask-builders';
import { askFingerprint } from '../../../src/context/asks';
import {
  keptQuestions,
  MAX_KEPT_QUESTION_CHARS,
  MAX_KEPT_QUESTIONS,
  questionFingerprint,
  rememberQuestion,
} from '../../../src/context/question-texts';

function question(message: string): { request: ReturnType<typeof confirmAsk>['request']; text: string } {
  const ask = confirmAsk(message);
  return { request: ask.request, text: ask.requestJson!() };
}

describe('question texts kept by fingerprint', () => {
  it('a text sent under the expected fingerprint is given that fingerprint without hashing', () => {
    const q = question('Deploy to prod?');
    // A made-up fingerprint shows the answer came from the comparison, not from a hash.
    rememberQuestion('made-up-fingerpr', q.text);
    expect(questionFingerprint(q.request, q.text, 'made-up-fingerpr')).toBe('made-up-fingerpr');
  });

  it('a changed question gets its own hash, whatever fingerprint the flow expected', () => {
    const asked = question('Delete 1 file?');
    const now = question('Delete 2 files?');
    const sent = askFingerprint(asked.request, asked.text);
    rememberQuestion(sent, asked.text);
    const fingerprint = questionFingerprint(now.request, now.text, sent);
    expect(fingerprint).toBe(askFingerprint(now.request));
    expect(fingerprint).not.toBe(sent);
    // The same text with one character more or less is another question too.
    const longer = `${asked.text} `;
    expect(questionFingerprint(asked.request, longer, sent)).toBe(askFingerprint(asked.request, longer));
  });

  it('without an expectation, or with one never sent from here, the text is hashed', () => {
    const q = question('Go?');
    expect(questionFingerprint(q.request, q.text)).toBe(askFingerprint(q.request));
    expect(questionFingerprint(q.request, q.text, 'never-sent-here!')).toBe(askFingerprint(q.request));
  });

  it(`keeps at most ${MAX_KEPT_QUESTIONS} questions and ${MAX_KEPT_QUESTION_CHARS} characters, letting all go when full`, () => {
    const first = question('the oldest question');
    const firstFingerprint = askFingerprint(first.request, first.text);
    rememberQuestion(firstFingerprint, first.text);
    for (let i = 0; i < MAX_KEPT_QUESTIONS + 10; i++) {
      const q = question(`question ${i}`);
      rememberQuestion(askFingerprint(q.request, q.text), q.text);
      const kept = keptQuestions();
      expect(kept.count).toBeLessThanOrEqual(MAX_KEPT_QUESTIONS);
      expect(kept.chars).toBeLessThanOrEqual(MAX_KEPT_QUESTION_CHARS);
    }
    // Let go: the oldest is hashed again, to the same fingerprint.
    expect(questionFingerprint(first.request, first.text, firstFingerprint)).toBe(firstFingerprint);
    const big = 'x'.repeat(12 * 1024);
    for (let i = 0; i < 60; i++) {
      const q = question(`${big} ${i}`);
      rememberQuestion(askFingerprint(q.request, q.text), q.text);
      expect(keptQuestions().chars).toBeLessThanOrEqual(MAX_KEPT_QUESTION_CHARS);
    }
    const before = keptQuestions();
    const huge = question('y'.repeat(20 * 1024)); // longer than any kept question: never kept
    rememberQuestion('huge-question-fp', huge.text);
    expect(keptQuestions()).toEqual(before);
    expect(questionFingerprint(huge.request, huge.text, 'huge-question-fp')).toBe(askFingerprint(huge.request));
  });
});
