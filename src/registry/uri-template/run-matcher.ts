import type { MatcherProgram } from './matcher-program';

export interface MatcherRun {
  /** Capture slots of the winning thread, or undefined when the URI does not match. */
  readonly slots: readonly number[] | undefined;
  /**
   * Instructions visited. Bounded by about (URI length + 1) × 2 × program size because each
   * instruction is visited at most once per URI position; tests assert this bound as a
   * machine-independent proof that no input triggers catastrophic backtracking.
   */
  readonly steps: number;
}

interface Thread {
  readonly pc: number;
  readonly slots: number[];
}

/**
 * Pike-VM simulation: all alternatives advance together one URI character at a time, in
 * priority order, and two threads reaching the same instruction collapse into the
 * higher-priority one. The result equals what a greedy backtracking regex would pick,
 * without its exponential worst case. Anchored at both ends.
 */
export function runMatcher(program: MatcherProgram, uri: string): MatcherRun {
  const { instructions } = program;
  const visitedInGeneration = new Int32Array(instructions.length).fill(-1);
  let generation = 0;
  let steps = 0;

  const addThread = (list: Thread[], pc: number, slots: number[], position: number): void => {
    steps++;
    if (visitedInGeneration[pc] === generation) return;
    visitedInGeneration[pc] = generation;
    const instruction = instructions[pc];
    switch (instruction?.kind) {
      case 'jump':
        addThread(list, instruction.target, slots, position);
        return;
      case 'split':
        addThread(list, instruction.preferred, slots, position);
        addThread(list, instruction.alternative, slots, position);
        return;
      case 'save': {
        const updated = slots.slice();
        updated[instruction.slot] = position;
        addThread(list, pc + 1, updated, position);
        return;
      }
      default:
        list.push({ pc, slots });
    }
  };

  let current: Thread[] = [];
  addThread(current, 0, new Array<number>(program.slotCount).fill(-1), 0);
  for (let position = 0; position < uri.length && current.length > 0; position++) {
    const char = uri[position] as string;
    const next: Thread[] = [];
    generation++;
    for (const thread of current) {
      steps++;
      const instruction = instructions[thread.pc];
      const consumes =
        (instruction?.kind === 'char' && instruction.char === char) ||
        (instruction?.kind === 'valueChar' && !instruction.stops.includes(char));
      if (consumes) addThread(next, thread.pc + 1, thread.slots, position + 1);
    }
    current = next;
  }
  const winner = current.find((thread) => instructions[thread.pc]?.kind === 'accept');
  return { slots: winner?.slots, steps };
}
