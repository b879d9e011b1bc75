// Harness-only: when started with an IPC channel (and --expose-gc), answers 'mem' with the memory
// after a full GC, so idle-session memory is measured without garbage noise. Inert otherwise.
if (process.send) {
  process.on('message', (m) => {
    if (m !== 'mem') return;
    global.gc?.();
    global.gc?.();
    process.send({ type: 'mem', ...process.memoryUsage() });
  });
}
