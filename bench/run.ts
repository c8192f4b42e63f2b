/**
 * `npm run bench`: every benchmark, each in its own process; figures and the machine printed,
 * then every line that states a goal gathered at the end, so what is met and what is not can
 * be read in one place.
 * BENCH_ONLY=resolver,mailIn runs only the files whose name contains one of the words.
 */
import { spawn } from 'node:child_process';
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
  ['bench/mailInParts.ts', []],
  ['bench/despatchesByMail.ts', ['embedded']],
  ['bench/despatchesByMail.ts', ['server']],
  ['bench/webhooks.ts', ['embedded']],
  ['bench/webhooks.ts', ['server']],
  ['bench/views.ts', ['embedded']],
  ['bench/views.ts', ['server']],
  ['bench/healthLoad.ts', ['embedded']],
  ['bench/healthLoad.ts', ['server']],
  ['bench/pageLoad.ts', ['embedded', 'kept']],
  ['bench/pageLoad.ts', ['embedded', 'render']],
  ['bench/startup.ts', ['embedded']],
  ['bench/startup.ts', ['server']],
];
const only = process.env.BENCH_ONLY?.split(',').map((w) => w.trim()).filter(Boolean);

/** Runs one bench, its output shown as it comes; resolves with its lines and exit status. */
function runBench(file: string, args: string[]): Promise<{ lines: string[]; status: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d: Buffer) => { process.stdout.write(d); text += d.toString(); });
    child.on('close', (status) => resolve({ lines: text.split('\n'), status }));
  });
}

const goals: string[] = [];
for (const [file, args] of runs) {
  if (!existsSync(file)) continue;
  if (only && !only.some((w) => file.includes(w))) continue;
  const label = `${file} ${args.join(' ')}`.trim();
  console.log(`\n== ${label}`);
  const { lines, status } = await runBench(file, args);
  if (status !== 0) goals.push(`${label}: FAILED with status ${status}`);
  // A bench states each goal in the line of its figure ("goal < 3 s: met" / "NOT met").
  for (const line of lines) if (/\bgoal\b/.test(line)) goals.push(line.trim());
}
console.log('\n== goals (each line as its bench printed it)');
// ✓ only for a line that says "met"; a goal line that says neither is marked ? (a bench to fix).
for (const g of goals) console.log(`${/NOT met|FAILED/.test(g) ? '✗' : /\bmet\b/.test(g) ? '✓' : '?'} ${g}`);
