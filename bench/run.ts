/** `npm run bench`: every benchmark, each in its own process; figures and the machine printed. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { machineLine } from './machine.js';

console.log(machineLine());
const runs: [string, string[]][] = [
  ['bench/campaign.ts', ['embedded']],
  ['bench/campaign.ts', ['server']],
  ['bench/resolver.ts', []],
  ['bench/resolveApi.ts', ['server']],
  ['bench/map.ts', []],
  ['bench/reports.ts', ['server']],
  ['bench/parser.ts', []],
  ['bench/mailIn.ts', ['embedded']],
  ['bench/mailIn.ts', ['server']],
  ['bench/views.ts', ['embedded']],
  ['bench/views.ts', ['server']],
  ['bench/healthLoad.ts', ['embedded']],
  ['bench/healthLoad.ts', ['server']],
  ['bench/startup.ts', ['embedded']],
  ['bench/startup.ts', ['server']],
];
for (const [file, args] of runs) {
  if (!existsSync(file)) continue;
  console.log(`\n== ${file} ${args.join(' ')}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], { stdio: 'inherit' });
  if (r.status !== 0) console.log(`(${file} ${args.join(' ')} failed with status ${r.status})`);
}
