import { describe, it, expect } from 'vitest';
import {
  validateScenario, formatProblem, editDistance, suggest, type ScenarioProblem,
} from '../../src/scenario/validate.js';
import { parseScenarioJson } from '../../src/scenario/load.js';
import { smallScenario, setPath, deletePath } from './fixture.js';

/** Validate the small scenario after `change`; it must be refused. */
function problemsAfter(change: (s: object) => void): ScenarioProblem[] {
  const s = smallScenario();
  change(s);
  const r = validateScenario(s);
  if (r.ok) throw new Error('expected the scenario to be refused');
  return r.problems;
}

/** Exactly one problem, at `path`, whose message matches `message`. */
function expectOnly(problems: ScenarioProblem[], path: string, message: RegExp): void {
  expect(problems.map(formatProblem)).toHaveLength(1);
  expect(problems[0]!.path).toBe(path);
  expect(problems[0]!.message).toMatch(message);
}

describe('validateScenario: a good scenario', () => {
  it('accepts the small test scenario', () => {
    const r = validateScenario(smallScenario());
    expect(r.ok ? [] : r.problems).toEqual([]);
  });

  it('returns a deep copy, not the input itself', () => {
    const input = smallScenario();
    const r = validateScenario(input);
    if (!r.ok) throw new Error('refused');
    input.nodes[0]!.name = 'Changed';
    expect(r.scenario.nodes[0]!.name).toBe('Kingston');
  });

  it('allows extra fields (the format says more are allowed)', () => {
    const r = validateScenario({ ...smallScenario(), author: 'GM', nodes: smallScenario().nodes.map((n) => ({ ...n, note: 'x' })) });
    expect(r.ok).toBe(true);
  });

  it('accepts crew dice expressions like the engine rolls them', () => {
    for (const crew of ['d6', 'd6-5', '2d6+1', '0', '3', 'D6-2']) {
      const r = validateScenario((() => { const s = smallScenario(); s.nodes[0]!.rating!.crew = crew; return s; })());
      expect(r.ok, crew).toBe(true);
    }
  });
});

describe('validateScenario: refuses and says where', () => {
  it('refuses something that is not an object, without throwing', () => {
    for (const input of [null, 42, 'scenario', [], undefined]) {
      const r = validateScenario(input);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.problems[0]!.message).toMatch(/must be a scenario/);
    }
  });

  it('values that are not plain JSON, without throwing', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'vpGoal', 10n)), 'vpGoal', /got 10 \(a BigInt\)/);
    const withFunction = { ...smallScenario(), extra: () => 1 };
    const r = validateScenario(withFunction);
    expect(r.ok ? [] : r.problems.map((p) => p.message)).toEqual(['the scenario holds values that are not plain JSON (functions, symbols...)']);
  });

  it('missing required field', () => {
    expectOnly(problemsAfter((s) => deletePath(s, 'name')), 'name', /is required/);
  });

  it('wrong type of field', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'vpGoal', '25')), 'vpGoal', /whole number 1 or more, got "25"/);
  });

  it('missing list', () => {
    expectOnly(problemsAfter((s) => deletePath(s, 'shipClasses')), 'shipClasses', /is required \(a list of ship classes\)/);
  });

  it('start month out of range', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'start.month', 13)), 'start.month', /from 1 to 12/);
  });

  it('bad power key slug', () => {
    const problems = problemsAfter((s) => setPath(s, 'powers[2].key', 'Spanish Crown'));
    expect(problems[0]).toEqual({ path: 'powers[2].key', message: expect.stringMatching(/not a slug.*'spanish-crown'/) });
  });

  it('wants a node\'s lat and lon together, each in range', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'nodes[0].lat', 17.97)), 'nodes[0].lon', /give "lon" too .*both lat and lon, or neither/);
    expectOnly(problemsAfter((s) => setPath(s, 'nodes[0].lon', -76.79)), 'nodes[0].lat', /give "lat" too/);
    const r = validateScenario((() => { const s = smallScenario(); setPath(s, 'nodes[0].lat', 17.97); setPath(s, 'nodes[0].lon', -76.79); return s; })());
    expect(r.ok ? [] : r.problems).toEqual([]);
    expect(problemsAfter((s) => { setPath(s, 'nodes[0].lat', 97); setPath(s, 'nodes[0].lon', -76.79); }).map((p) => p.path)).toEqual(['nodes[0].lat']);
  });

  it('bad node id slug', () => {
    const problems = problemsAfter((s) => setPath(s, 'nodes[3].id', 'The_Channel'));
    expect(problems.find((p) => p.path === 'nodes[3].id')?.message).toMatch(/not a slug: use lower-case letters, digits and single hyphens/);
  });

  it('bad ship-class key slug', () => {
    const problems = problemsAfter((s) => setPath(s, 'shipClasses[0].key', 'SOL 74'));
    expect(problems.find((p) => p.path === 'shipClasses[0].key')?.message).toMatch(/not a slug.*'sol-74'/);
  });

  it('duplicate power key', () => {
    const problems = problemsAfter((s) => setPath(s, 'powers[2].key', 'french'));
    expect(problems[0]).toEqual({ path: 'powers[2].key', message: expect.stringMatching(/duplicate power key 'french' \(already used at powers\[1\]\.key\)/) });
    // With 'spanish' gone, Havana's owner is unknown too: a real consequence, also listed.
    expect(problems[1]).toEqual({ path: 'nodes[2].owner', message: expect.stringMatching(/unknown power 'spanish'/) });
  });

  it('duplicate node id', () => {
    const problems = problemsAfter((s) => setPath(s, 'nodes[4].id', 'channel'));
    expect(problems[0]).toEqual({ path: 'nodes[4].id', message: expect.stringMatching(/duplicate node id 'channel'/) });
  });

  it('duplicate node name, compared as orders match names (case and spaces ignored)', () => {
    const problems = problemsAfter((s) => setPath(s, 'nodes[4].name', 'the  channel'));
    expect(problems[0]).toEqual({ path: 'nodes[4].name', message: expect.stringMatching(/duplicate node name 'the  channel' \(already used at nodes\[3\]\.name\)/) });
  });

  it('duplicate ship-class key', () => {
    const problems = problemsAfter((s) => setPath(s, 'shipClasses[1].key', 'sol-74'));
    expect(problems[0]).toEqual({ path: 'shipClasses[1].key', message: expect.stringMatching(/duplicate ship-class key 'sol-74'/) });
  });

  it('duplicate fleet name (case and spacing do not make names different)', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'fleets[1].name', 'jamaica  squadron')), 'fleets[1].name', /duplicate fleet name/);
  });

  it('duplicate ship name, across fleets', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'fleets[1].ships[0].name', 'HMS Bellerophon')), 'fleets[1].ships[0].name', /duplicate ship name 'HMS Bellerophon' \(already used at fleets\[0\]\.ships\[0\]\.name\)/);
  });

  it('unknown node at the b end of an edge, with a suggestion', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'edges[0].b', 'chanel')), 'edges[0].b', /unknown node 'chanel' — did you mean 'channel'\?/);
  });

  it('unknown node at the a end of an edge', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'edges[0].a', 'kingstn')), 'edges[0].a', /unknown node 'kingstn' — did you mean 'kingston'\?/);
  });

  it('no suggestion when nothing is close', () => {
    const problems = problemsAfter((s) => setPath(s, 'edges[0].a', 'zanzibar'));
    expect(problems[0]!.message).toBe("unknown node 'zanzibar'");
  });

  it('self-loop', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'edges[3]', { a: 'channel', b: 'channel' })), 'edges[3]', /to itself/);
  });

  it('duplicate edge, even written the other way round', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'edges', [...smallScenario().edges, { a: 'martinique', b: 'open-sea' }])),
      'edges[5]', /duplicate edge 'martinique <-> open-sea' \(already used at edges\[2\]\)/);
  });

  it('bad wind value', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'edges[1].wind', 'east')), 'edges[1].wind', /one of a>b, b>a/);
  });

  it('port without owner', () => {
    expectOnly(problemsAfter((s) => deletePath(s, 'nodes[2].owner')), 'nodes[2].owner', /a port needs an owner/);
  });

  it('port owner that is not a power', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'nodes[2].owner', 'spain')), 'nodes[2].owner', /unknown power 'spain' — did you mean 'spanish'\?/);
  });

  it('port without rating', () => {
    expectOnly(problemsAfter((s) => deletePath(s, 'nodes[0].rating')), 'nodes[0].rating', /a port needs a rating/);
  });

  it('port without fort', () => {
    expectOnly(problemsAfter((s) => deletePath(s, 'nodes[0].fort')), 'nodes[0].fort', /a port needs a fort/);
  });

  it('rating crew that is not a dice expression', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'nodes[1].rating.crew', 'one die less five')), 'nodes[1].rating.crew', /dice expression such as "d6-5"/);
  });

  it('rating figures that are not whole numbers', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'nodes[1].rating.rigging', -1)), 'nodes[1].rating.rigging', /whole number 0 or more/);
  });

  it('non-port with an owner', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'nodes[3].owner', 'british')), 'nodes[3].owner', /only a port has an owner/);
  });

  it('bad node kind', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'nodes[3].kind', 'ocean')), 'nodes[3].kind', /one of sea, port, box/);
  });

  it('fleet at an unknown node', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'fleets[0].at', 'kingstown')), 'fleets[0].at', /unknown node 'kingstown' — did you mean 'kingston'\?/);
  });

  it('fleet of an unknown power', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'fleets[0].power', 'britain')), 'fleets[0].power', /unknown power 'britain'/);
  });

  it('fleet in harbor at a node that is not a port', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'fleets[1].inHarbor', true)), 'fleets[1].inHarbor', /'open-sea' is a sea, not a port/);
  });

  it('fleet in harbor at a hostile port', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'fleets[0].at', 'martinique')), 'fleets[0].inHarbor', /hostile harbor can never be entered/);
  });

  it('fleet in harbor at a neutral port is allowed', () => {
    const s = smallScenario();
    s.fleets[0]!.at = 'havana';
    expect(validateScenario(s).ok).toBe(true);
  });

  it('ship of an unknown class', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'fleets[0].ships[1].class', 'frigate-82')), 'fleets[0].ships[1].class', /unknown ship class 'frigate-82' — did you mean 'frigate-28'\?/);
  });

  it('fleet with no ships', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'fleets[0].ships', [])), 'fleets[0].ships', /at least one ship/);
  });

  it('bad stance', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'fleets[1].stance', 'flee')), 'fleets[1].stance', /engage, avoid, engage-if-stronger/);
  });

  it('two mission fleets for one power', () => {
    const problems = problemsAfter((s) => {
      setPath(s, 'fleets[0].onMission', true);
      setPath(s, 'fleets', [...(s as ReturnType<typeof smallScenario>).fleets, { power: 'british', name: 'Second', at: 'kingston', onMission: true, ships: [{ name: 'HMS Mars', class: 'sol-74' }] }]);
    });
    expectOnly(problems, 'fleets[2].onMission', /already has a mission fleet \(fleets\[0\]\)/);
  });

  it('playable power without an orders table', () => {
    expectOnly(problemsAfter((s) => deletePath(s, 'powers[0].ordersTable')), 'powers[0].ordersTable', /a playable power needs an ordersTable: 6 mission types/);
  });

  it('orders table with five entries', () => {
    expectOnly(problemsAfter((s) => deletePath(s, 'powers[0].ordersTable[5]')), 'powers[0].ordersTable', /exactly 6 mission types/);
  });

  it('orders table with a bad mission type', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'powers[1].ordersTable[3]', 'plunder')), 'powers[1].ordersTable[3]', /one of idle, convoy, patrol, raid, blockade; got "plunder"/);
  });

  it('playable power without a convoy table', () => {
    expectOnly(problemsAfter((s) => deletePath(s, 'powers[1].convoyTable')), 'powers[1].convoyTable', /needs a convoyTable: 6 \[from, to\] pairs/);
  });

  it('convoy table row naming a port that does not exist', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'powers[0].convoyTable[2][1]', 'barbados')), 'powers[0].convoyTable[2][1]', /unknown port or box 'barbados'/);
  });

  it('convoy table row naming a sea node', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'powers[0].convoyTable[0][0]', 'channel')), 'powers[0].convoyTable[0][0]', /'channel' is a sea node; it must be a port or box/);
  });

  it('a non-playable power needs no tables', () => {
    const s = smallScenario();
    expect(s.powers[2]!.ordersTable).toBeUndefined();
    expect(validateScenario(s).ok).toBe(true);
  });

  it('no playable power at all', () => {
    const problems = problemsAfter((s) => {
      setPath(s, 'powers[0].playable', false);
      setPath(s, 'powers[1].playable', false);
      deletePath(s, 'missions');
    });
    expectOnly(problems, 'powers', /no power is playable/);
  });

  it('colour that is not #rrggbb', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'powers[0].color', 'red')), 'powers[0].color', /#rrggbb/);
  });

  it('mission for an unknown power', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'missions[0].power', 'dutch')), 'missions[0].power', /unknown power 'dutch'/);
  });

  it('mission for a power that is not playable', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'missions[0]', { power: 'spanish', type: 'patrol' })), 'missions[0].power', /not playable/);
  });

  it('mission of a bad type', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'missions[0].type', 'siege')), 'missions[0].type', /one of idle, convoy, patrol, raid, blockade/);
  });

  it('mission target that is not a port', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'missions[0].target', 'open-sea')), 'missions[0].target', /'open-sea' is a sea node; it must be a port/);
  });

  it('mission target that does not exist', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'missions[0].target', 'martinque')), 'missions[0].target', /unknown port 'martinque' — did you mean 'martinique'\?/);
  });

  it('mission target on a patrol', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'missions[0].type', 'patrol')), 'missions[0].target', /only a raid or blockade has a target/);
  });

  it('two missions for one power', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'missions[1]', { power: 'british', type: 'idle' })), 'missions[1].power', /duplicate mission for power 'british'/);
  });

  it('disconnected map, listing what cannot be reached', () => {
    const problems = problemsAfter((s) => {
      deletePath(s, 'edges[4]'); // open-sea - box-1
      deletePath(s, 'edges[3]'); // channel - havana
    });
    expectOnly(problems, 'edges', /not connected: from 'kingston' no route reaches 'havana', 'box-1'/);
  });

  it('vp table missing a field', () => {
    expectOnly(problemsAfter((s) => deletePath(s, 'vp.convoyCaptured')), 'vp.convoyCaptured', /is required/);
  });

  it('vp table with a negative value', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'vp.frigateSunk', -2)), 'vp.frigateSunk', /whole number 0 or more/);
  });

  it('unknown setting, with a suggestion', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'settings', { maxFleetMoved: 4 })), 'settings.maxFleetMoved', /unknown setting 'maxFleetMoved' — did you mean 'maxFleetsMoved'\?/);
  });

  it('setting of the wrong type', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'settings', { allowPendingBattles: 'yes', maxFleetsMoved: 3 })), 'settings.allowPendingBattles', /true or false/);
  });

  it('known settings are accepted', () => {
    const s = smallScenario();
    s.settings = { maxFleetsMoved: 4, fullSupplies: 6, allowPendingBattles: true, missingOrders: 'hold' };
    s.fleets[1]!.ships[0]!.supplies = 6;
    expect(validateScenario(s).ok).toBe(true);
  });

  it('supplies out of 0..4', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'fleets[1].ships[0].supplies', 5)), 'fleets[1].ships[0].supplies', /from 0 to 4/);
  });

  it('more hull damage than the class has', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'fleets[1].ships[0].hullLost', 13)), 'fleets[1].ships[0].hullLost', /13 is more hull damage than the class can lose \(at most 12\)/);
  });

  it('more rigging damage than a mast has', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'fleets[1].ships[0].riggingLost', [1, 7, 0])), 'fleets[1].ships[0].riggingLost[1]', /7 is more than the 6 boxes this mast has/);
  });

  it('crew damage with the wrong number of sections', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'fleets[1].ships[0].crewLost', [1, 1])), 'fleets[1].ships[0].crewLost', /needs 3 entries/);
  });

  it('ship class with two crew sections', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'shipClasses[1].crewSections', [3, 3])), 'shipClasses[1].crewSections', /list of 3 whole numbers/);
  });

  it('lists several problems at once', () => {
    const problems = problemsAfter((s) => {
      setPath(s, 'powers[0].color', 'blue');
      deletePath(s, 'nodes[2].owner');
      setPath(s, 'edges[1].b', 'opensea');
      setPath(s, 'fleets[0].at', 'nowhere');
      setPath(s, 'fleets[1].ships[0].class', 'sol-47');
      setPath(s, 'vp.portCaptured', 'five');
    });
    expect(problems.map((p) => p.path)).toEqual([
      'powers[0].color',
      'nodes[2].owner',
      'edges[1].b',
      'fleets[0].at',
      'fleets[1].ships[0].class',
      'vp.portCaptured',
    ]);
    expect(formatProblem(problems[2]!)).toBe("edges[1].b: unknown node 'opensea' — did you mean 'open-sea'?");
  });

  it('lists every structural problem of a badly broken file, in the order of the file', () => {
    const problems = problemsAfter((s) => {
      setPath(s, 'name', '');
      setPath(s, 'vpGoal', 0);
      for (const i of [0, 1, 2]) setPath(s, `powers[${i}].color`, 'red');
      for (const i of [0, 1, 2, 3, 4]) setPath(s, `nodes[${i}].x`, 'left');
      setPath(s, 'edges[0].wind', 'east');
      setPath(s, 'fleets[0].stance', 'flee');
      setPath(s, 'vp.frigateSunk', -1);
    });
    expect(problems.map((p) => p.path)).toEqual([
      'name', 'vpGoal', 'powers[0].color', 'powers[1].color', 'powers[2].color',
      'nodes[0].x', 'nodes[1].x', 'nodes[2].x', 'nodes[3].x', 'nodes[4].x',
      'edges[0].wind', 'fleets[0].stance', 'vp.frigateSunk',
    ]);
    expect(problems[5]!.message).toBe('must be a number from -1000000 to 1000000, got "left"');
  });

  it('a key that is not a slug is reported once, and references to it still resolve', () => {
    const problems = problemsAfter((s) => {
      setPath(s, 'nodes[0].id', 'Kingston Harbour');
      setPath(s, 'edges[0].a', 'Kingston Harbour');
    });
    expect(problems.filter((p) => p.path === 'nodes[0].id').map((p) => p.message)).toEqual([
      "'Kingston Harbour' is not a slug: use lower-case letters, digits and single hyphens (e.g. 'kingston-harbour')",
    ]);
    // What the rename broke elsewhere is listed (convoy tables name 'kingston'); the edge that follows it is not.
    expect(problems.some((p) => p.message === "unknown port or box 'kingston'")).toBe(true);
    expect(problems.map((p) => p.path)).not.toContain('edges[0].a');
  });

  it('a display name on two lines, naming the character', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'fleets[0].name', 'Jamaica\nSquadron')), 'fleets[0].name', /holds a line break \(\\n\) at character 8; write it as plain text on one line/);
  });

  it('a convoy-table row of three places', () => {
    expectOnly(problemsAfter((s) => setPath(s, 'powers[0].convoyTable[1]', ['box-1', 'kingston', 'havana'])), 'powers[0].convoyTable[1]', /must be a \[from, to\] pair of port or box ids, got \["box-1","kingston","havana"\]/);
  });
});

describe('parseScenarioJson', () => {
  it('reports bad JSON as a problem instead of throwing', () => {
    const r = parseScenarioJson('{"name": ');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]!.message).toMatch(/^not valid JSON/);
  });

  it('accepts good JSON', () => {
    expect(parseScenarioJson(JSON.stringify(smallScenario())).ok).toBe(true);
  });
});

describe('suggestions', () => {
  it('edit distance counts single-letter edits', () => {
    expect(editDistance('kingston', 'kingstn')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('flaw', 'lawn')).toBe(2);
  });

  it('suggests only close ids', () => {
    expect(suggest('St-Kits', ['st-kitts', 'antigua'])).toBe('st-kitts');
    expect(suggest('xyz', ['st-kitts', 'antigua'])).toBeUndefined();
  });
});

describe('validateScenario: a port\'s approaches (a blockade there is on station, rules VII "Ship is on Blockade duty +3")', () => {
  it('accepts known node ids and carries them into the campaign', () => {
    const s = smallScenario();
    (s.nodes[1] as { approaches?: string[] }).approaches = ['open-sea'];
    const r = validateScenario(s);
    expect(r.ok).toBe(true);
  });

  it('refuses an unknown node, naming the nearest id', () => {
    const problems = problemsAfter((s) => { (s as ReturnType<typeof smallScenario>).nodes[1]!.approaches = ['open-se']; });
    expectOnly(problems, 'nodes[1].approaches[0]', /unknown node 'open-se' — did you mean 'open-sea'\?/);
  });

  it('refuses approaches on a node that is not a port', () => {
    const problems = problemsAfter((s) => { (s as ReturnType<typeof smallScenario>).nodes[3]!.approaches = ['channel']; });
    expectOnly(problems, 'nodes[3].approaches', /only a port has approaches/);
  });
});
