// The sealed form of a flow: a new object (its maps copied), and, without answers or once outcomes, one that
// reads exactly as its own JSON text does, so the codec may keep it for the token's return (issue 34).
import { emptyFlow, dict } from '../../../src/context/flow-state';
import { readFlow, sealedFlowText, standsForItsText, toSealedFlow } from '../../../src/context/sealed-flow';

function roundOneFlow() {
  const flow = emptyFlow('flow-1');
  void flow.answers; // read but never written: still seals as no answers
  flow.asked.confirm = 'AbCdEfGhIjKlMnOp';
  flow.asked.__proto__ = 'a key, not the prototype';
  flow.state = Object.fromEntries([['step', '2'], ['__proto__', 'x']]);
  flow.reasks.confirm = 1;
  flow.askedAt = 1_733_350_000_000;
  flow.handlerState = 'mine';
  return flow;
}

describe('toSealedFlow', () => {
  it('without answers or once outcomes, stands for its JSON text: readFlow reads the same from both', () => {
    const sealed = toSealedFlow(roundOneFlow());
    expect(standsForItsText(sealed)).toBe(true);
    expect(readFlow(sealed)).toEqual(readFlow(JSON.parse(JSON.stringify(sealed))));
    expect(Object.keys(readFlow(sealed)!.asked)).toEqual(['confirm', '__proto__']);
  });

  it('copies the maps: what the round changes after sealing is not in the sealed flow', () => {
    const flow = roundOneFlow();
    const sealed = toSealedFlow(flow);
    const text = JSON.stringify(sealed);
    flow.asked.later = 'x';
    flow.reasks.confirm = 2;
    flow.state.step = '3';
    expect(JSON.stringify(sealed)).toBe(text);
  });

  it('with answers or once outcomes it does not (their values are the handler’s and the client’s)', () => {
    const answered = roundOneFlow();
    answered.answers.confirm = { question: 'AbCdEfGhIjKlMnOp', answer: { action: 'accept', content: { n: -0 } } };
    expect(standsForItsText(toSealedFlow(answered))).toBe(false);
    const onced = roundOneFlow();
    onced.onces = dict();
    onced.onces.charge = { value: { id: 1 } };
    expect(standsForItsText(toSealedFlow(onced))).toBe(false);
  });
});

describe('sealedFlowText', () => {
  const awkward = ['', 'plain', 'quote " backslash \\ nl \n', 'lone \ud800 surrogate', '\u2028 é 😀'];
  awkward.push('__proto__', '10', '-1');

  it('equals JSON.stringify of the sealed flow, byte for byte, for every shape it answers', () => {
    const shapes = [];
    for (const word of awkward) {
      const flow = emptyFlow(word);
      flow.asked[word] = word;
      flow.asked['2'] = 'two'; // an integer-like key goes first, in JSON.stringify as in the text
      flow.state = Object.fromEntries([[word, word], ['z', '']]);
      flow.reasks[word] = 3;
      flow.round = 7;
      flow.handlerState = word;
      flow.firstSpan = word;
      flow.askedAt = 1_733_350_000_000;
      flow.approval = word;
      shapes.push(flow, emptyFlow(word));
    }
    shapes.push(roundOneFlow());
    for (const flow of shapes) {
      const sealed = toSealedFlow(flow);
      expect(sealedFlowText(sealed)).toBe(JSON.stringify(sealed));
    }
  });

  it('gives no text for answers, once outcomes, or a value of an unexpected type', () => {
    const answered = roundOneFlow();
    answered.answers.confirm = { question: 'q', answer: true };
    expect(sealedFlowText(toSealedFlow(answered))).toBeUndefined();
    const odd = toSealedFlow(roundOneFlow());
    expect(sealedFlowText({ ...odd, n: 1.5 })).toBeUndefined();
    expect(sealedFlowText({ ...odd, w: Number.NaN })).toBeUndefined();
    expect(sealedFlowText({ ...odd, x: { k: -0.5 } })).toBeUndefined();
    expect(sealedFlowText({ ...odd, p: { k: 1 as unknown as string } })).toBeUndefined();
    expect(sealedFlowText({ ...odd, s: { k: undefined as unknown as string } })).toBeUndefined();
  });
});
