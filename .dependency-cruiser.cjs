/**
 * The layers of src/ (docs/architecture.md), checked by `npm test` (test/architecture):
 * an import may go down a layer or stay in its own, never climb. Each rule names a folder
 * and the folders it may import from; anything else under src/ is a climb.
 */
const layers = {
  rules: [],
  scenario: ['rules'],
  orders: ['rules'],
  words: ['rules', 'orders', 'scenario'],
  map: ['rules', 'scenario', 'words'],
  export: ['rules', 'scenario', 'words', 'map', 'orders'],
  workers: ['rules', 'orders'],
  db: ['rules', 'scenario', 'generated', 'config'],
  outbox: ['db'],
  webhooks: ['db', 'outbox', 'rules', 'words', 'generated', 'config'],
  mail: ['db', 'outbox', 'rules', 'scenario', 'orders', 'words', 'map', 'export', 'generated', 'config'],
  campaign: ['db', 'outbox', 'mail', 'webhooks', 'rules', 'scenario', 'orders', 'words', 'map', 'export', 'workers', 'generated', 'config'],
};

/**
 * The adapters on top: they parse, call a use case or read function of src/campaign, and
 * render. Neither src/db nor the generated Prisma client is among what they may import:
 * every query is the campaign's (the database handle's type comes from campaign/database.ts).
 * HTTP registers inbound mail's webhook route.
 */
const below = ['campaign', 'mail', 'webhooks', 'rules', 'scenario', 'orders', 'words', 'map', 'export', 'workers', 'config'];
const adapters = {
  inbound: below,
  http: [...below, 'inbound'],
};

// 'config': the settings read from the environment (src/config.ts, src/envNumber.ts).
const folder = (name) => (name === 'config' ? '^src/(config|envNumber)\\.ts$' : `^src/${name}/`);

module.exports = {
  forbidden: [
    ...Object.entries({ ...layers, ...adapters }).map(([name, allowed]) => ({
      name: `${name}-climbs`,
      comment: `src/${name} may import only from ${allowed.length ? allowed.map((a) => `src/${a}`).join(', ') : 'itself'}`,
      severity: 'error',
      from: { path: folder(name) },
      to: { path: '^src/', pathNot: [folder(name), ...allowed.map(folder)] },
    })),
    {
      name: 'adapters-on-top',
      comment: 'inbound mail, the HTTP routes and pages and the start-up receive; nothing below them imports them',
      severity: 'error',
      from: { path: `^src/(${Object.keys(layers).join('|')})/` },
      to: { path: ['^src/inbound/', '^src/http/', '^src/(serve|launch|main)\\.ts$'] },
    },
    {
      name: 'no-circular',
      comment: 'no module reaches itself again through its runtime imports (a cycle through types alone loads nothing)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    // The generated client is not cruised (its own imports are Prisma's), but imports OF it are
    // seen, so an adapter importing it is caught.
    doNotFollow: { path: ['node_modules', '^src/generated/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
