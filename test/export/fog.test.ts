// The fog of a battle package (SPEC §6, docs/battle-export.md "What each side may know"):
// every format, setup sheet and result sheet of each side, rendered from two campaigns that
// differ only in what that side may not know of the enemy (fleet names, boxes as joined,
// supplies, crew quality, the convoy's route and size, the fort's boxes for the attackers),
// must read the same, word for word. The GM's package must not (so the secrets are really
// varied), and each side still sees the enemy's names, classes, rates and colours.
import { describe, expect, it } from 'vitest';
import { battlePackage, packageForPower } from '../../src/export/package.js';
import { renderBattle, EXPORT_FORMATS, type ExportFormat } from '../../src/export/render.js';
import { renderResultSheetHtml } from '../../src/export/resultSheet.js';
import { renderResultSheetPdf } from '../../src/export/resultSheetPdf.js';
import type { Ruleset } from '../../src/export/convert/index.js';
import { rebuildRecord } from '../../src/rules/battleRecord.js';
import type { CampaignState } from '../../src/rules/state.js';
import { NAMES, world } from './fixture.js';
import { pdfPages, text } from './readBack.js';

const RULESETS: Ruleset[] = ['wsim', 'btq', 'gng', 'cogs'];

/** The fixture with its battles recorded at contact, in the words the resolver uses (they name the fleets). */
function recorded(state: CampaignState): CampaignState {
  const title = (id: string) => {
    const f = state.fleets.find((x) => x.id === id)!;
    return `${f.name} (${state.powers.find((p) => p.key === f.power)!.name})`;
  };
  for (const b of state.battles) {
    const record = rebuildRecord(state, b, '');
    b.record = b.harbor
      ? { ...record, made: 'at-contact', note: null, contact: `ATTACK HARBOR: France attacked the ships in the harbor and the fort`, contactKind: 'harbor' }
      : { ...record, made: 'at-contact', note: null, contact: `pursuit: ${title('jam')} chased ${title('mar')}`, contactKind: 'pursuit' };
  }
  return state;
}

/** The same campaign with everything `enemy` keeps to itself changed; `fort`: the fort's boxes too (the attackers may not know them). */
function withSecretsChanged(enemy: string, fort: boolean): CampaignState {
  const state = world();
  for (const f of state.fleets.filter((x) => x.power === enemy)) {
    f.name = `${f.name} the Second`;
    if (f.convoy) f.convoy = { from: 'n1', to: 'n2', merchantmen: 11, pickedUp: true };
    for (const s of f.ships) {
      s.hull = Math.max(1, s.hull - 2);
      s.rigging = s.rigging.map((r) => Math.max(0, r - 1));
      s.guns = Math.max(1, s.guns - 3);
      s.carronades = 0;
      s.crew = s.crew.map((c) => Math.max(1, c - 1));
      s.supplies = 1;
      s.crewQuality = s.crewQuality === 'elite' ? 'green' : 'elite';
    }
  }
  const p = state.powers.find((x) => x.key === enemy)!;
  p.crewQuality = p.crewQuality === 'elite' ? 'green' : 'elite';
  if (fort) {
    const harbor = state.battles.find((b) => b.harbor)!;
    harbor.fort = { hull: 3, crewSections: [1, 2, 0], guns: 2 };
    state.ports.find((x) => x.node === harbor.node)!.fort = { hull: 3, crewSections: [1, 2, 0], guns: 2 };
  }
  return recorded(state);
}

type Sheet = { name: string; read: (state: CampaignState, battle: string, power: string | null) => Promise<string> };

const cut = (state: CampaignState, battle: string, power: string | null) => {
  const pkg = battlePackage(state, battle);
  return power ? packageForPower(pkg, power)! : pkg;
};

async function readable(body: string | Buffer, pdf: boolean): Promise<string> {
  if (pdf) return (await pdfPages(body as Buffer)).join('\n');
  const s = String(body);
  return s.trimStart().startsWith('{') ? s : text(s);
}

const SHEETS: Sheet[] = [
  ...EXPORT_FORMATS.map((format: ExportFormat): Sheet => ({
    name: format,
    read: async (state, battle, power) => readable((await renderBattle(cut(state, battle, power), format)).body, format.endsWith('-pdf')),
  })),
  ...RULESETS.flatMap((ruleset): Sheet[] => [
    { name: `${ruleset} result sheet (HTML)`, read: async (state, battle, power) => text(renderResultSheetHtml(cut(state, battle, power), ruleset, 'ABCD-EFGH')) },
    { name: `${ruleset} result sheet (PDF)`, read: async (state, battle, power) => readable(await renderResultSheetPdf(cut(state, battle, power), ruleset, 'ABCD-EFGH'), true) },
  ]),
];

// b1: the British attack a French squadron escorting a convoy at sea. b2: the French attack Kingston, the British fort with the defenders.
const VIEWS = [
  { battle: 'b1', side: 'british', enemy: 'french', fort: false },
  { battle: 'b1', side: 'french', enemy: 'british', fort: false },
  { battle: 'b2', side: 'french', enemy: 'british', fort: true },
  { battle: 'b2', side: 'british', enemy: 'french', fort: false },
];

describe.each(VIEWS)('battle $battle, the $side package', ({ battle, side, enemy, fort }) => {
  const plain = recorded(world());
  const secret = withSecretsChanged(enemy, fort);

  it.each(SHEETS)('$name reads the same whatever the enemy keeps to itself', async ({ read }) => {
    expect(await read(secret, battle, side)).toBe(await read(plain, battle, side));
  });

  // The setup PDF of a harbor attack prints nothing the defenders keep (names, drafts, the fort's place), even for the GM.
  it.each(SHEETS.filter((s) => !(battle === 'b2' && s.name === 'setup-pdf')))('$name of the GM shows what was varied (the fog test can fail)', async ({ read }) => {
    const [a, b] = [await read(plain, battle, null), await read(secret, battle, null)];
    expect(b).not.toBe(a);
  });
});

describe('what a side still sees of the enemy, and what it is not told', () => {
  const state = recorded(world());
  it('the British package of b1 names the French ships, classes and rates, but not their fleet, convoy or supplies', async () => {
    const json = JSON.parse(String((await renderBattle(cut(state, 'b1', 'british'), 'json')).body));
    const french = json.sides.find((s: { power: string }) => s.power === 'french');
    expect(french.sighted.map((s: { name: string }) => s.name)).toEqual([NAMES.bucentaure, NAMES.hortense]);
    expect(french.sighted.map((s: { rate: number }) => s.rate)).toEqual([80, 40]);
    expect(french.color).toBe('#002395');
    expect(french.convoyInSight).toBe(true);
    const body = JSON.stringify(json);
    for (const secret of ['Escadre de la Martinique', '"merchantmen"', 'Martinique (Fort-de-France)']) expect(body).not.toContain(secret);
    expect(JSON.stringify(french)).not.toMatch(/"supplies"|"hull"|"crew"|"guns"/);
    expect(french.crewQuality).toBeNull();
    const page = text(String((await renderBattle(cut(state, 'b1', 'british'), 'wsim-html')).body));
    expect(page).toContain(`${NAMES.hortense} (`);
    expect(page).not.toMatch(/convoy of 5 merchantmen/);
    expect(page).not.toContain('Escadre de la Martinique');
    expect(page).toContain('Jamaica Squadron'); // their own fleet
    expect(page).toContain('HMS Bellerophon'); // their own log
  });

  it("the GM's package holds both sides whole: the French convoy, fleet and supplies", async () => {
    const page = text(String((await renderBattle(cut(state, 'b1', null), 'wsim-html')).body));
    expect(page).toContain('convoy of 5 merchantmen (Escadre de la Martinique), Martinique (Fort-de-France) to Kingston (Jamaica)');
    expect(page).toContain('Supplies');
  });

  it("the attackers of Kingston see the fort and its guns, not its boxes; the defenders see them", async () => {
    const attackers = text(String((await renderBattle(cut(state, 'b2', 'french'), 'wsim-html')).body));
    expect(attackers).toContain('The fort of Kingston (Jamaica) (Great Britain) fights with the defenders');
    expect(attackers).not.toContain('hull 17/20');
    const defenders = text(String((await renderBattle(cut(state, 'b2', 'british'), 'wsim-html')).body));
    expect(defenders).toContain('hull 17/20');
  });

  it('a battle without an attacker (every side alike) is each power for itself: the others are sighted', () => {
    const state = recorded(world());
    const b1 = state.battles.find((b) => b.id === 'b1')!;
    for (const side of b1.record!.sides) side.attacker = false;
    for (const side of b1.sides) side.attacker = false;
    const british = cut(state, 'b1', 'british');
    expect(british.sides.map((s) => [s.power, s.seen])).toEqual([['british', 'whole'], ['french', 'sighted']]);
  });
});
