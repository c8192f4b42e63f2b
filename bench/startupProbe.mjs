// Loaded into the service by bench/startup.ts (NODE_OPTIONS=--import): on SIGUSR2, one line
// with the process's memory as it is, then the heap still retained after a full collection,
// so the bench can tell live objects from garbage not yet collected.
// The collector is reached through a flag set at that moment, not `node --expose-gc`, so the
// service runs with exactly the flags `npm start` gives it until the bench asks.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

process.on('SIGUSR2', () => {
  const now = process.memoryUsage();
  setFlagsFromString('--expose-gc');
  runInNewContext('gc')();
  console.log(`[memory] ${JSON.stringify({ ...now, retained: process.memoryUsage().heapUsed })}`);
});
