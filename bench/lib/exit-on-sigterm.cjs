// Preload for profiled servers: exit normally on SIGTERM so `--cpu-prof` writes its profile.
process.on('SIGTERM', () => process.exit(0));
