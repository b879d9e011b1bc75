// Preload for `profile.mjs --alloc`: a sampling heap profile that keeps the objects GC already
// collected (what --heap-prof drops), so it shows what a request allocates, not what stays.
// SIGUSR2 starts sampling (after the warm-up), SIGTERM writes ALLOC_PROF_FILE and exits.
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');

const session = new Session();
session.connect();
process.on('SIGUSR2', () => {
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true,
  });
});
process.on('SIGTERM', () => {
  session.post('HeapProfiler.stopSampling', (err, r) => {
    if (!err) writeFileSync(process.env.ALLOC_PROF_FILE, JSON.stringify(r.profile));
    process.exit(0);
  });
});
