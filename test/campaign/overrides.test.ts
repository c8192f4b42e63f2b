// GM overrides as pure state changes (src/rules/overrides.ts): new state or every problem
// as a value, the input state never touched; and through the use case, saved and audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePortOwner, moveFleet, reinforce } from '../../src/campaign/overrides.js';
import { loadState } from '../../src/db/campaignStore.js';
import { addReinforcements, moveFleetOverride, setPortOwnerOverride } from '../../src/rules/overrides.js';
import type { CampaignState } from '../../src/rules/state.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import { validateScenario } from '../../src/scenario/validate.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { makeCampaign } from './helpers.js';

function caribbean(): CampaignState {
  const checked = validateScenario(builtInScenario('caribbean'));
  if (!checked.ok) throw new Error('bad built-in scenario');
  return scenarioToState(checked.scenario);
}

describe('moveFleetOverride', () => {
  it('puts a fleet anywhere, by id or loose name, leaving the input alone', () => {
    const state = caribbean();
    const copy = structuredClone(state);
    const out = moveFleetOverride(state, { fleet: 'jamaica squadron', to: 'Windward Passage' });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.change).toMatchObject({ from: { at: 'kingston', inHarbor: true }, to: { at: 'windward-passage', inHarbor: false } });
    expect(out.state.fleets.find((f) => f.name === 'Jamaica Squadron')!.at).toBe('windward-passage');
    expect(state).toEqual(copy);
  });

  it('may enter any harbor, even a hostile one (the GM\'s word)', () => {
    const out = moveFleetOverride(caribbean(), { fleet: 'f1', to: 'martinique', inHarbor: true });
    expect(out.ok && out.change.to).toEqual({ at: 'martinique', inHarbor: true });
  });

  it('lists every problem', () => {
    const out = moveFleetOverride(caribbean(), { fleet: 'Nobody', to: 'Kingstown' });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.violations.map((v) => v.code)).toEqual(['override/unknown_fleet', 'override/unknown_node']);
    expect(out.violations[1]!.message).toMatch(/did you mean: .*kingston/);
    const sea = moveFleetOverride(caribbean(), { fleet: 'f1', to: 'windward-passage', inHarbor: true });
    expect(!sea.ok && sea.violations[0]!.code).toBe('override/no_harbor');
  });
});

describe('setPortOwnerOverride', () => {
  it('hands the port over and names the old owner\'s fleets left in its harbor', () => {
    const out = setPortOwnerOverride(caribbean(), { port: 'kingston', owner: 'France' });
    expect(setPortOwnerOverride(caribbean(), { port: 'Kingston', owner: 'french' }).ok).toBe(true);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.change).toEqual({ port: 'kingston', name: 'Kingston (Jamaica)', from: 'british', to: 'french', fleetsInHarbor: ['Jamaica Squadron'] });
    const port = out.state.ports.find((p) => p.node === 'kingston')!;
    expect(port.owner).toBe('french');
    expect(port.originalOwner).toBe('british');
  });

  it('refuses a node that is no port, or an unknown power', () => {
    const out = setPortOwnerOverride(caribbean(), { port: 'windward-passage', owner: 'prussia' });
    expect(!out.ok && out.violations.map((v) => v.code)).toEqual(['override/not_a_port', 'override/unknown_power']);
  });
});

describe('addReinforcements', () => {
  it('makes a new fleet of undamaged, supplied ships with fresh ids', () => {
    const state = caribbean();
    const out = addReinforcements(state, { power: 'american', at: 'norfolk', fleetName: 'Lake Squadron', ships: [{ name: 'USS Niagara', class: 'us-frigate-28', crewQuality: 'green' }] });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    const fleet = out.state.fleets.at(-1)!;
    expect(fleet).toMatchObject({ name: 'Lake Squadron', power: 'american', at: 'norfolk', inHarbor: true, stance: 'engage-if-stronger' });
    expect(state.fleets.some((f) => f.id === fleet.id)).toBe(false);
    const ship = fleet.ships[0]!;
    expect(state.fleets.flatMap((f) => f.ships).some((s) => s.id === ship.id)).toBe(false);
    const cls = state.shipClasses.find((c) => c.key === 'us-frigate-28')!;
    expect(ship).toMatchObject({ name: 'USS Niagara', crewQuality: 'green', hull: cls.hull, rigging: cls.rigging, crew: cls.crewSections, supplies: 4, status: 'afloat' });
    expect(out.state.seq.ship).toBeGreaterThan(state.seq.ship);
  });

  it('at sea by default away from the power\'s own ports', () => {
    const out = addReinforcements(caribbean(), { power: 'british', at: 'havana', fleetName: 'X', ships: [{ name: 'HMS X', class: 'frigate-28' }] });
    expect(out.ok && out.change.inHarbor).toBe(false);
  });

  it('refuses unknown classes, names in use, a harbor at sea, no ships', () => {
    const out = addReinforcements(caribbean(), {
      power: 'british', at: 'windward-passage', inHarbor: true, fleetName: 'Jamaica Squadron',
      ships: [{ name: 'HMS Mars', class: 'sol-74' }, { name: 'HMS Nova', class: 'sol-200' }, { name: 'hms nova', class: 'sol-74' }],
    });
    expect(!out.ok && out.violations.map((v) => v.code)).toEqual(['override/no_harbor', 'override/name_taken', 'override/name_taken', 'override/unknown_class', 'override/name_taken']);
    const none = addReinforcements(caribbean(), { power: 'british', at: 'kingston', fleetName: 'Empty', ships: [] });
    expect(!none.ok && none.violations.map((v) => v.code)).toEqual(['override/no_ships']);
  });
});

describe('overrides saved and audited', () => {
  let db: TestDatabase;
  beforeAll(async () => { db = await testDatabase(); });
  afterAll(async () => { await db?.destroy(); });

  it('each override changes the stored campaign in one transaction with its audit entry', async () => {
    const { id } = await makeCampaign(db, { seed: 'overrides' });
    await moveFleet(db, id, { fleet: 'Gulf Squadron', to: 'havana', inHarbor: true, reason: 'chased in' }, 'gm');
    await changePortOwner(db, id, { port: 'havana', owner: 'american' }, 'gm');
    const r = await reinforce(db, id, { power: 'american', at: 'havana', fleetName: 'Havana Prize Squadron', ships: [{ name: 'USS Havana', class: 'frigate-40' }] }, 'gm');
    const state = await loadState(db.prisma, id);
    expect(state.fleets.find((f) => f.name === 'Gulf Squadron')).toMatchObject({ at: 'havana', inHarbor: true });
    expect(state.ports.find((p) => p.node === 'havana')!.owner).toBe('american');
    expect(state.fleets.find((f) => f.id === r.fleetId)!.ships.map((s) => s.name)).toEqual(['USS Havana']);
    const audit = await db.prisma.auditEntry.findMany({ where: { campaignId: id, action: { startsWith: 'override.' } }, orderBy: { at: 'asc' } });
    expect(audit.map((a) => [a.actor, a.action])).toEqual([['gm', 'override.fleet_moved'], ['gm', 'override.port_owner'], ['gm', 'override.reinforcements']]);
    expect(audit[0]!.details).toMatchObject({ turn: 1, from: { at: 'new-orleans', inHarbor: true }, to: { at: 'havana', inHarbor: true }, reason: 'chased in' });
    expect(audit[1]!.details).toMatchObject({ from: 'spanish', to: 'american' });

    // A refused override stores nothing.
    const before = await db.prisma.auditEntry.count({ where: { campaignId: id } });
    await expect(moveFleet(db, id, { fleet: 'Gulf Squadron', to: 'nowhere' })).rejects.toMatchObject({ kind: 'bad_request', code: 'override/invalid' });
    expect(await db.prisma.auditEntry.count({ where: { campaignId: id } })).toBe(before);
  });
});
