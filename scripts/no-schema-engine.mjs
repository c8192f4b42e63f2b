#!/usr/bin/env node
// Prisma's CLI looks for its native schema engine at every command and downloads it when it
// is missing; on a network that cannot reach Prisma's binary host that download fails, even
// for `prisma generate`, which never runs the engine. prisma.config.ts names this file as
// the engine where none was downloaded: `generate` works, and a migrate command says why it
// cannot run here (docs/migrations.md).
const message = 'Prisma\'s schema engine is not installed here: Prisma\'s binary host could not be reached. '
  + 'The service applies the migrations itself (npm run migrate); docs/migrations.md says how to write a new one. '
  + 'Where the host can be reached, run the command again with PRISMA_DOWNLOAD_ENGINE=1.';
// A one-shot `cli …` command: the CLI skips stderr's first line and reads the rest as the
// native engine's JSON log lines. Anything else is a JSON-RPC session (what the migrate
// commands start), which gets the message as the answer to its first request.
const args = process.argv.slice(2);
if (args.includes('cli') || args.includes('--version')) {
  process.stderr.write(`no schema engine\n${JSON.stringify({ timestamp: new Date().toISOString(), level: 'ERROR', fields: { message, error_code: 'P1000' }, target: 'schema_engine::logger' })}\n`);
  process.exit(1);
}
let input = '';
process.stdin.on('data', (chunk) => {
  input += chunk;
  const line = input.split('\n')[0];
  if (line === input) return;
  let id = null;
  try { id = JSON.parse(line).id ?? null; } catch { /* not JSON: answered all the same */ }
  const error = { code: 4466, message: 'An error happened. Check the data field for details.', data: { is_panic: false, message, meta: {}, error_code: 'P1000' } };
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`, () => process.exit(1));
});
process.stdin.on('end', () => process.exit(1));
