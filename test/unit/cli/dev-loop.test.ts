import { DevLoop, type BuildResult, type DevEffects } from '../../../src/cli/dev-loop';

/** Effects whose builds finish when the test says so, recording what happened in order. */
function fakeEffects() {
  const events: string[] = [];
  const pending: Array<(result: BuildResult) => void> = [];
  let started = 0;
  const effects: DevEffects = {
    build: () => {
      events.push('build');
      return new Promise((resolve) => pending.push(resolve));
    },
    start: () => {
      const n = ++started;
      events.push(`start ${n}`);
      return { stop: async () => void events.push(`stop ${n}`) };
    },
    report: (line) => events.push(`report ${line.split('\n')[0]}`),
  };
  const finishBuild = async (result: BuildResult = { ok: true, output: '' }) => {
    while (pending.length === 0) await new Promise((r) => setImmediate(r));
    pending.shift()!(result);
    await new Promise((r) => setImmediate(r));
  };
  return { events, effects, finishBuild };
}

describe('DevLoop', () => {
  test('builds, starts; a change rebuilds and restarts', async () => {
    const { events, effects, finishBuild } = fakeEffects();
    const loop = new DevLoop(effects);
    const first = loop.changed();
    await finishBuild();
    await first;
    const second = loop.changed();
    await finishBuild();
    await second;
    expect(events.filter((e) => !e.startsWith('report'))).toEqual(['build', 'start 1', 'build', 'stop 1', 'start 2']);
    await loop.stop();
    expect(events.at(-1)).toBe('stop 2');
  });

  test('a failed build keeps the running server and shows the compiler output', async () => {
    const { events, effects, finishBuild } = fakeEffects();
    const loop = new DevLoop(effects);
    const first = loop.changed();
    await finishBuild();
    await first;
    const second = loop.changed();
    await finishBuild({
      ok: false,
      output: "src/a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.\n",
    });
    await second;
    expect(events).toContain('report build failed; the previous build keeps running:');
    expect(events.filter((e) => e.startsWith('start') || e.startsWith('stop'))).toEqual(['start 1']);
    await loop.stop();
  });

  test('changes during a build queue exactly one more build', async () => {
    const { events, effects, finishBuild } = fakeEffects();
    const loop = new DevLoop(effects);
    const first = loop.changed();
    void loop.changed();
    void loop.changed();
    void loop.changed();
    await finishBuild();
    await finishBuild();
    await first;
    expect(loop.cycles).toBe(2);
    expect(events.filter((e) => !e.startsWith('report'))).toEqual(['build', 'start 1', 'build', 'stop 1', 'start 2']);
    await loop.stop();
  });

  test('stop during a build starts nothing afterwards', async () => {
    const { events, effects, finishBuild } = fakeEffects();
    const loop = new DevLoop(effects);
    void loop.changed();
    const stopping = loop.stop();
    await finishBuild();
    await stopping;
    await loop.changed();
    expect(events.filter((e) => e.startsWith('start'))).toEqual([]);
  });
});
