// Loaded into the service by bench/startup.ts (NODE_OPTIONS=--import, with --expose-gc): on
// SIGUSR2, one line with the process's memory as it is, then the heap still retained after a
// full collection, so the bench can tell live objects from garbage not yet collected.
process.on('SIGUSR2', () => {
  const now = process.memoryUsage();
  globalThis.gc?.();
  console.log(`[memory] ${JSON.stringify({ ...now, retained: process.memoryUsage().heapUsed })}`);
});
