// Loaded into the service by bench/startup.ts (NODE_OPTIONS=--import): on SIGUSR2, one line
// with the process's memory, so the bench can tell the JS heap from the rest of the RSS.
process.on('SIGUSR2', () => console.log(`[memory] ${JSON.stringify(process.memoryUsage())}`));
