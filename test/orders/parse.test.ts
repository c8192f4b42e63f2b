import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatMessage, parseOrders, type ParsedOrders } from '../../src/orders/index.js';
import { caribbean, msg } from './fixture.js';

const state = caribbean();
const parse = (text: string, opts: Parameters<typeof parseOrders>[2] = { power: 'british' }) => parseOrders(text, state, opts);
/** Errors as a player reads them. */
const errs = (r: ParsedOrders) => r.errors.map(formatMessage);
const warns = (r: ParsedOrders) => r.warnings.map(formatMessage);
const fleetOrders = (r: ParsedOrders, id: string) => r.orders?.fleets.find((f) => f.fleetId === id);

describe('header', () => {
  it('reads CAMPAIGN, POWER, PASSWORD and TURN as written', () => {
    const r = parse('Campaign: caribbean-1805\nPOWER British\nPASSWORD Hearts-Of-Oak\nTURN 4', { power: 'british', campaign: { id: 'c1', slug: 'caribbean-1805' } });
    expect(r.header).toEqual({ campaign: 'caribbean-1805', power: 'British', password: 'Hearts-Of-Oak', turn: 4 });
    expect(r.errors).toEqual([]);
    expect(r.orders).toEqual({ power: 'british', fleets: [], forms: [] });
    expect(r.lines.map((l) => l.status)).toEqual(['header', 'header', 'header', 'header']);
  });

  it('never echoes the password', () => {
    const r = parse('POWER british\npassword: Hearts-Of-Oak\n> PASSWORD old-secret\nmy password is Hearts-Of-Oak, right?');
    expect(r.lines.map((l) => l.text)).toEqual(['POWER british', 'PASSWORD ****', '> PASSWORD ****', 'my password is ****, right?']);
    expect(JSON.stringify([r.lines, r.warnings, r.errors])).not.toContain('Hearts-Of-Oak');
  });

  it('POWER missing is an error for the message as a whole; the caller\'s power still reads the orders', () => {
    const r = parse('FLEET Jamaica Squadron: HOLD');
    expect(errs(r)).toEqual(['no POWER line: write POWER <your power> at the top, e.g. POWER british']);
    expect(r.errors[0]!.line).toBe(0);
    expect(r.orders?.fleets).toEqual([{ fleetId: 'f1', hold: true, lines: [1] }]);
  });

  it('POWER missing and no caller power: orders are null', () => {
    const r = parse('FLEET Jamaica Squadron: HOLD', {});
    expect(r.orders).toBeNull();
    expect(r.errors.map((e) => e.code)).toEqual(['orders/missing_power']);
  });

  it('POWER unknown', () => {
    const r = parse('POWER prussia\nFLEET Jamaica Squadron: HOLD', {});
    expect(errs(r)).toEqual(["line 1: no power called 'prussia' in this campaign; the powers that take orders are: british, french"]);
    expect(r.orders).toBeNull();
  });

  it('POWER of a neutral power', () => {
    const r = parse('POWER spanish', {});
    expect(errs(r)).toEqual(['line 1: Spanish is a neutral power and takes no orders']);
    expect(r.orders).toBeNull();
  });

  it('POWER may be the power\'s name', () => {
    const r = parse('POWER Great Britain\nFLEET Jamaica Squadron: HOLD', {});
    expect(r.errors).toEqual([]);
    expect(r.orders?.power).toBe('british');
  });

  it('POWER that is not the sender\'s is an error, and the orders are read as the sender\'s', () => {
    const r = parse('POWER french\nFLEET Toulon Squadron: HOLD', { power: 'british' });
    expect(errs(r)).toEqual([
      "line 1: these orders come from the player of Great Britain: POWER must be british, not 'french'",
      "line 2: no fleet of yours called 'Toulon Squadron'; your fleets are: Jamaica Squadron, Leeward Squadron, Windward Squadron, Inshore Squadron, Frigate Squadron",
    ]);
    expect(r.orders?.power).toBe('british');
  });

  it('two different POWER lines', () => {
    const r = parse('POWER british\nPOWER french', {});
    expect(errs(r)).toEqual(['line 2: POWER french contradicts POWER british on line 1; orders are for one power']);
  });

  it('CAMPAIGN that is not the campaign the orders were sent to', () => {
    const r = parse(msg('CAMPAIGN mediterranean'), { power: 'british', campaign: { id: 'c1', slug: 'caribbean-1805' } });
    expect(errs(r)).toEqual(["line 3: these orders name campaign 'mediterranean' but were sent to campaign 'caribbean-1805'"]);
    expect(parse(msg('CAMPAIGN C1'), { power: 'british', campaign: { id: 'c1', slug: 'x' } }).errors).toEqual([]);
  });

  it('TURN that is not the open turn', () => {
    const r = parse(msg('TURN 3'));
    expect(errs(r)).toEqual(['line 3: these orders are for turn 3 but turn 4 is open']);
    expect(r.header.turn).toBe(3);
    expect(r.lines[2]!.status).toBe('error');
  });

  it('TURN without a number', () => {
    expect(errs(parse(msg('Turn 4 orders follow')))).toEqual(['line 3: TURN needs the turn number, e.g. TURN 4']);
  });

  it('empty PASSWORD and CAMPAIGN', () => {
    expect(errs(parse('POWER british\nPASSWORD\nCAMPAIGN'))).toEqual([
      'line 2: PASSWORD needs your password: PASSWORD <password>',
      'line 3: CAMPAIGN needs the campaign: CAMPAIGN <campaign id or slug>',
    ]);
  });
});

describe('what is not orders', () => {
  it('chatter is ignored with a warning naming the line', () => {
    const r = parse(msg('Dear GM,', '', 'FLEET Jamaica Squadron: HOLD', '', '', 'Thanks!', 'Sent from my phone'));
    expect(warns(r)).toEqual([
      'line 3: not an order, ignored: Dear GM,',
      'line 8: not an order, ignored: Thanks!',
      'line 9: not an order, ignored: Sent from my phone',
    ]);
    expect(r.errors).toEqual([]);
    expect(r.lines.map((l) => [l.line, l.status])).toEqual([[1, 'header'], [2, 'header'], [3, 'ignored'], [5, 'order'], [8, 'ignored'], [9, 'ignored']]);
  });

  it('a long chatter line is cut short in the warning', () => {
    const r = parse(msg('x'.repeat(100)));
    expect(r.warnings[0]!.message).toBe(`not an order, ignored: ${'x'.repeat(57)}...`);
  });

  it('quoted reply lines and the signature are not read, and not warned about', () => {
    const r = parse(msg(
      'FLEET Jamaica Squadron: HOLD',
      'On 3 Jan 1805, the GM wrote:',
      '> FLEET Leeward Squadron: SAIL',
      '>> Thanks!',
      '--',
      'Horatio Nelson',
      'FLEET Windward Squadron: SAIL',
    ));
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.lines.slice(3).map((l) => l.status)).toEqual(['quoted', 'quoted', 'quoted', 'after-end', 'after-end', 'after-end']);
    expect(r.orders?.fleets.map((f) => f.fleetId)).toEqual(['f1']);
  });

  it('END: anything below is ignored', () => {
    const r = parse(msg('FLEET Jamaica Squadron: HOLD', 'END', 'FLEET Leeward Squadron: SAIL', 'Thanks'));
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.lines.slice(3).map((l) => l.status)).toEqual(['order', 'after-end', 'after-end']);
  });

  it('a line beginning with a keyword that does not parse is an error, not chatter', () => {
    const r = parse(msg('Fleet looks good to me'));
    expect(errs(r)).toEqual(['line 3: a fleet order needs a colon after the fleet name: FLEET <fleet>: <order>']);
  });

  it('list bullets before an order are allowed', () => {
    const r = parse(msg('- FLEET Jamaica Squadron: HOLD', '2. FLEET Leeward Squadron: HOLD'));
    expect(r.errors).toEqual([]);
    expect(r.orders?.fleets.map((f) => f.fleetId)).toEqual(['f1', 'f2']);
  });
});

describe('fleet orders', () => {
  it('every order reads', () => {
    const r = parse(msg(
      'FLEET Jamaica Squadron: REPAIR',
      'FLEET Leeward Squadron: STANCE AVOID',
      'FLEET Leeward Squadron: DROP SLOW',
      'FLEET Leeward Squadron: MISSION',
      'FLEET Windward Squadron: REDUCE FORT',
      'FLEET Inshore Squadron: HOLD',
      'FLEET Frigate Squadron: ATTACK HARBOR',
      'FLEET Frigate Squadron: stance engage if stronger',
      'FLEET Windward Squadron: Stance Engage',
    ));
    expect(r.errors).toEqual([]);
    expect(r.orders?.fleets).toEqual([
      { fleetId: 'f1', repair: true, lines: [3] },
      { fleetId: 'f2', stance: 'avoid', dropSlow: true, mission: true, lines: [4, 5, 6] },
      { fleetId: 'f3', reduceFort: true, stance: 'engage', lines: [7, 11] },
      { fleetId: 'f4', hold: true, lines: [8] },
      { fleetId: 'f5', attackHarbor: true, stance: 'engage-if-stronger', lines: [9, 10] },
    ]);
  });

  it('an unknown order after FLEET x:', () => {
    const r = parse(msg('', '', 'FLEET Jamaica Squadron: SAIL Windward Passage'));
    expect(errs(r)).toEqual(["line 5: 'SAIL' is not an order; fleet orders are MOVE, LEAVE HARBOR, HOLD, REPAIR, STANCE, DROP SLOW, MISSION, REDUCE FORT, ATTACK HARBOR"]);
    expect(r.lines.find((l) => l.line === 5)?.status).toBe('error');
  });

  it('nothing after the colon', () => {
    expect(errs(parse(msg('FLEET Jamaica Squadron:')))).toEqual([
      'line 3: an order is missing after the colon; fleet orders are MOVE, LEAVE HARBOR, HOLD, REPAIR, STANCE, DROP SLOW, MISSION, REDUCE FORT, ATTACK HARBOR',
    ]);
  });

  it('words after a one-word order', () => {
    expect(errs(parse(msg('FLEET Jamaica Squadron: HOLD and REPAIR')))).toEqual([
      "line 3: 'and REPAIR' after HOLD is not understood; one order a line (write another FLEET line)",
    ]);
  });

  it('an unknown fleet, with the nearest of your fleets suggested', () => {
    expect(errs(parse(msg('FLEET Jamica Squadron: HOLD')))).toEqual(["line 3: no fleet of yours called 'Jamica Squadron'; did you mean 'Jamaica Squadron'?"]);
    expect(errs(parse(msg('FLEET Jamaica: HOLD')))).toEqual(["line 3: no fleet of yours called 'Jamaica'; did you mean 'Jamaica Squadron'?"]);
  });

  it('an unknown fleet with nothing near: your fleets are listed', () => {
    expect(errs(parse(msg('FLEET Channel Fleet: HOLD')))).toEqual([
      "line 3: no fleet of yours called 'Channel Fleet'; your fleets are: Jamaica Squadron, Leeward Squadron, Windward Squadron, Inshore Squadron, Frigate Squadron",
    ]);
  });

  it('a fleet of another power: told exactly as a name nobody has, so nothing is learnt about it', () => {
    const r = parse(msg('FLEET Toulon Squadron: MOVE Windward Passage', 'FLEET f6: HOLD', 'FLEET Lyon Squadron: MOVE Windward Passage', 'FLEET f7: HOLD'));
    const yours = 'your fleets are: Jamaica Squadron, Leeward Squadron, Windward Squadron, Inshore Squadron, Frigate Squadron';
    expect(errs(r)).toEqual([
      `line 3: no fleet of yours called 'Toulon Squadron'; ${yours}`, "line 4: no fleet of yours called 'f6'; did you mean 'Jamaica Squadron'?",
      `line 5: no fleet of yours called 'Lyon Squadron'; ${yours}`, "line 6: no fleet of yours called 'f7'; did you mean 'Jamaica Squadron'?",
    ]);
    expect(r.errors.map((e) => e.code)).toEqual(Array(4).fill('orders/unknown_fleet'));
    expect(JSON.stringify(r)).not.toMatch(/Cap Fran|Redoutable|harbor/i);
    expect(r.orders?.fleets).toEqual([]);
  });

  it('suggestions never name another power\'s fleet', () => {
    const r = parse(msg('FLEET Toulon Squadrn: HOLD'));
    expect(r.errors[0]!.message).not.toContain('Toulon Squadron');
  });

  it('fleet names: id, loose, quoted, any case', () => {
    const r = parse(msg('FLEET f1: HOLD', 'FLEET "leeward squadron": HOLD', 'fleet WINDWARD-SQUADRON: hold', 'Fleet Inshore  Squadron : Hold.'));
    expect(r.errors).toEqual([]);
    expect(r.orders?.fleets.map((f) => f.fleetId)).toEqual(['f1', 'f2', 'f3', 'f4']);
  });

  it('a fleet line without the colon is read when the name is exact', () => {
    const r = parse(msg('FLEET Jamaica Squadron HOLD', 'FLEET Windward Squadron MOVE Mona Passage'));
    expect(r.errors).toEqual([]);
    expect(r.orders?.fleets.map((f) => f.fleetId)).toEqual(['f1', 'f3']);
  });

  it('a quote not closed', () => {
    expect(errs(parse(msg('FLEET Windward Squadron: MOVE "Mona Passage')))).toEqual(['line 3: a quote is not closed: "Mona Passage; close it with another "']);
  });

  it('STANCE with an unknown value', () => {
    expect(errs(parse(msg('FLEET Jamaica Squadron: STANCE BOLD')))).toEqual([
      "line 3: 'BOLD' is not a stance; write STANCE ENGAGE, STANCE AVOID or STANCE ENGAGE IF STRONGER",
    ]);
    expect(errs(parse(msg('FLEET Jamaica Squadron: STANCE')))).toEqual([
      'line 3: STANCE needs a stance; write STANCE ENGAGE, STANCE AVOID or STANCE ENGAGE IF STRONGER',
    ]);
  });
});

describe('MOVE', () => {
  const route = (line: string, fleet = 'f3') => {
    const r = parse(msg(line));
    return { r, move: fleetOrders(r, fleet)?.move };
  };

  it('unquoted multiword names are read greedily', () => {
    const { r, move } = route('FLEET Windward Squadron: MOVE Mona Passage Leeward Islands St Kitts HARBOR');
    expect(r.errors).toEqual([]);
    expect(move).toEqual({ leaveHarbor: false, route: ['mona-passage', 'leeward-islands', 'st-kitts'], enterHarbor: true });
  });

  it.each([
    ['quoted', 'MOVE "Mona Passage" "Leeward Islands" "St. Kitts"'],
    ['commas', 'MOVE Mona Passage, Leeward Islands, St. Kitts'],
    ['arrows', 'MOVE Mona Passage -> Leeward Islands → st. kitts'],
    ['lone dashes', 'MOVE Mona Passage - Leeward Islands - st-kitts'],
    ['ids', 'MOVE mona-passage leeward-islands st-kitts'],
    ['hyphens between names', 'MOVE Mona-Passage-Leeward-Islands-St-Kitts'],
    ['to and then', 'MOVE to Mona Passage then Leeward Islands then to Saint Kitts'],
    ['no spaces', 'MOVE MonaPassage LeewardIslands StKitts'],
    ['any case', 'move MONA PASSAGE leeward islands ST. KITTS'],
    ['single quotes', "MOVE 'Mona Passage' 'Leeward Islands' 'St. Kitts'"],
  ])('route written with %s', (_, order) => {
    const { r, move } = route(`FLEET Windward Squadron: ${order}`);
    expect(r.errors).toEqual([]);
    expect(move?.route).toEqual(['mona-passage', 'leeward-islands', 'st-kitts']);
  });

  it('a name with brackets answers to its name without them', () => {
    const { r, move } = route('FLEET Leeward Squadron: MOVE Leeward Islands, Box 1', 'f2');
    expect(r.errors).toEqual([]);
    expect(move?.route).toEqual(['leeward-islands', 'box-1']);
  });

  it('accents are optional', () => {
    const { r, move } = route('FLEET Windward Squadron: MOVE Cap Francais');
    expect(r.errors).toEqual([]);
    expect(move?.route).toEqual(['cap-francais']);
  });

  it('HARBOR at the end is the flag, unless it is part of a name', () => {
    const { move } = route('FLEET Leeward Squadron: MOVE Leeward Islands English Harbour', 'f2');
    expect(move).toEqual({ leaveHarbor: false, route: ['leeward-islands', 'english-harbour'], enterHarbor: false });
    const b = route('FLEET Leeward Squadron: MOVE Leeward Islands English Harbour HARBOUR', 'f2');
    expect(b.move).toEqual({ leaveHarbor: false, route: ['leeward-islands', 'english-harbour'], enterHarbor: true });
    const c = route('FLEET Leeward Squadron: MOVE Leeward Islands, "English Harbour" and enter harbor', 'f2');
    expect(c.move?.enterHarbor).toBe(true);
  });

  it('MOVE HARBOR enters the harbor where the fleet stands', () => {
    const { r, move } = route('FLEET Leeward Squadron: MOVE HARBOR', 'f2');
    expect(r.errors).toEqual([]);
    expect(move).toEqual({ leaveHarbor: false, route: [], enterHarbor: true });
  });

  it('a route may start with where the fleet stands', () => {
    const { r, move } = route('FLEET Windward Squadron: MOVE Windward Passage, Mona Passage');
    expect(r.errors).toEqual([]);
    expect(move?.route).toEqual(['mona-passage']);
  });

  it('a misspelt place, with the nearest name; reading goes on', () => {
    const { r } = route('FLEET Windward Squadron: MOVE Mona Pasage Leewrd Islands Tortuga St Kitts');
    expect(errs(r)).toEqual([
      "line 3: no place called 'Mona Pasage' on the map; did you mean 'Mona Passage'?",
      "line 3: no place called 'Leewrd Islands' on the map; did you mean 'Leeward Islands'?",
      "line 3: no place called 'Tortuga' on the map",
    ]);
    expect(fleetOrders(r, 'f3')).toBeUndefined();
    expect(r.lines[2]!.status).toBe('error');
  });

  it('a quoted misspelt place', () => {
    expect(errs(route('FLEET Windward Squadron: MOVE "Mona Pasage"').r)).toEqual(["line 3: no place called 'Mona Pasage' on the map; did you mean 'Mona Passage'?"]);
  });

  it('a step not adjacent to the last, from where the fleet stands', () => {
    const { r } = route('FLEET Jamaica Squadron: MOVE Mona Passage', 'f1');
    expect(errs(r)).toEqual(['line 3: Mona Passage is not adjacent to Kingston; from Kingston you can reach: Windward Passage, South of Jamaica']);
    const b = route('FLEET Windward Squadron: MOVE Mona Passage, St. Kitts');
    expect(errs(b.r)).toEqual(['line 3: St. Kitts is not adjacent to Mona Passage; from Mona Passage you can reach: Windward Passage, South of Jamaica, Leeward Islands']);
  });

  it('a place named twice in a row', () => {
    expect(errs(route('FLEET Windward Squadron: MOVE Mona Passage Mona Passage').r)).toEqual([
      'line 3: Mona Passage is named twice in a row; list each place of the route once',
    ]);
  });

  it('MOVE with no route', () => {
    expect(errs(route('FLEET Windward Squadron: MOVE').r)).toEqual([
      'line 3: MOVE needs a route: MOVE <place> <place> ... from where the fleet stands, HARBOR at the end to enter a port',
    ]);
  });

  it('HARBOR at the end of a route whose last place is not a port', () => {
    expect(errs(route('FLEET Windward Squadron: MOVE Mona Passage HARBOR').r)).toEqual([
      "line 3: Mona Passage is not a port: HARBOR at the end of a route enters a port's harbor",
    ]);
    expect(errs(route('FLEET Windward Squadron: MOVE HARBOR').r)).toEqual([
      "line 3: Windward Passage is not a port: HARBOR at the end of a route enters a port's harbor",
    ]);
  });

  it('a fleet in harbor given MOVE leaves harbor first, with a warning', () => {
    const { r, move } = route('FLEET Jamaica Squadron: MOVE Windward Passage', 'f1');
    expect(r.errors).toEqual([]);
    expect(warns(r)).toEqual(['line 3: fleet Jamaica Squadron is in harbor: LEAVE HARBOR added (costs 1 mp)']);
    expect(move).toEqual({ leaveHarbor: true, route: ['windward-passage'], enterHarbor: false });
  });

  it('LEAVE HARBOR, alone or with MOVE', () => {
    const a = route('FLEET Jamaica Squadron: LEAVE HARBOR', 'f1');
    expect(a.r.errors).toEqual([]);
    expect(a.r.warnings).toEqual([]);
    expect(a.move).toEqual({ leaveHarbor: true, route: [], enterHarbor: false });
    const b = route('FLEET Jamaica Squadron: Leave Harbour, then MOVE Windward Passage', 'f1');
    expect(b.r.warnings).toEqual([]);
    expect(b.move).toEqual({ leaveHarbor: true, route: ['windward-passage'], enterHarbor: false });
  });

  it('LEAVE HARBOR followed by something else', () => {
    expect(errs(route('FLEET Jamaica Squadron: LEAVE HARBOR Windward Passage', 'f1').r)).toEqual([
      "line 3: after LEAVE HARBOR write MOVE and the route (LEAVE HARBOR MOVE <place> ...), not 'Windward Passage'",
    ]);
  });

  it('LEAVE HARBOR for a fleet at sea is ignored with a warning', () => {
    const { r, move } = route('FLEET Windward Squadron: LEAVE HARBOR MOVE Mona Passage');
    expect(r.errors).toEqual([]);
    expect(warns(r)).toEqual(['line 3: Windward Squadron is not in harbor; LEAVE HARBOR ignored']);
    expect(move).toEqual({ leaveHarbor: false, route: ['mona-passage'], enterHarbor: false });
  });
});

describe('several lines for one fleet', () => {
  it('merge into one FleetOrders', () => {
    const r = parse(msg('FLEET Jamaica Squadron: STANCE AVOID', 'Thanks', 'FLEET Jamaica Squadron: LEAVE HARBOR MOVE Windward Passage', 'FLEET f1: MISSION'));
    expect(r.errors).toEqual([]);
    expect(r.orders?.fleets).toEqual([
      { fleetId: 'f1', stance: 'avoid', move: { leaveHarbor: true, route: ['windward-passage'], enterHarbor: false }, mission: true, lines: [3, 5, 6] },
    ]);
  });

  it('LEAVE HARBOR and MOVE on separate lines merge', () => {
    const r = parse(msg('FLEET Jamaica Squadron: LEAVE HARBOR', 'FLEET Jamaica Squadron: MOVE Windward Passage'));
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(fleetOrders(r, 'f1')?.move).toEqual({ leaveHarbor: true, route: ['windward-passage'], enterHarbor: false });
  });

  it('two MOVEs: the later line is the error', () => {
    const r = parse(msg('FLEET Windward Squadron: MOVE Mona Passage', 'FLEET Windward Squadron: MOVE Cap Francais'));
    expect(errs(r)).toEqual(['line 4: Windward Squadron already has a MOVE on line 3; give the whole route in one MOVE']);
    expect(fleetOrders(r, 'f3')?.move?.route).toEqual(['mona-passage']);
  });

  it('MOVE then HOLD, and HOLD then MOVE', () => {
    expect(errs(parse(msg('FLEET Windward Squadron: MOVE Mona Passage', 'FLEET Windward Squadron: HOLD')))).toEqual([
      'line 4: Windward Squadron has a move on line 3; give HOLD or a move, not both',
    ]);
    expect(errs(parse(msg('FLEET Windward Squadron: HOLD', 'FLEET Windward Squadron: MOVE Mona Passage')))).toEqual([
      'line 4: Windward Squadron has HOLD on line 3; give HOLD or a move, not both',
    ]);
  });

  it('REPAIR and a move', () => {
    expect(errs(parse(msg('FLEET Jamaica Squadron: REPAIR', 'FLEET Jamaica Squadron: LEAVE HARBOR')))).toEqual([
      'line 4: Jamaica Squadron has REPAIR on line 3: a fleet that repairs cannot move this turn',
    ]);
  });

  it('two stances', () => {
    expect(errs(parse(msg('FLEET Jamaica Squadron: STANCE AVOID', 'FLEET Jamaica Squadron: STANCE ENGAGE')))).toEqual([
      'line 4: Jamaica Squadron already has STANCE AVOID on line 3; give one stance',
    ]);
  });

  it('REDUCE FORT and ATTACK HARBOR', () => {
    expect(errs(parse(msg('FLEET Windward Squadron: REDUCE FORT', 'FLEET Windward Squadron: ATTACK HARBOR')))).toEqual([
      'line 4: Windward Squadron has REDUCE FORT on line 3: give REDUCE FORT (no defenders) or ATTACK HARBOR (defenders present), not both',
    ]);
  });

  it('HOLD and REPAIR together, and a repeated order, are fine', () => {
    const r = parse(msg('FLEET Jamaica Squadron: HOLD', 'FLEET Jamaica Squadron: REPAIR', 'FLEET Jamaica Squadron: HOLD'));
    expect(r.errors).toEqual([]);
    expect(fleetOrders(r, 'f1')).toEqual({ fleetId: 'f1', hold: true, repair: true, lines: [3, 4, 5] });
  });
});

describe('the three-fleet limit', () => {
  it('the first extra fleet to move is the error; HOLD and REPAIR do not count', () => {
    const r = parse(msg(
      'FLEET Jamaica Squadron: REPAIR',
      'FLEET Windward Squadron: MOVE Mona Passage',
      'FLEET Inshore Squadron: LEAVE HARBOR',
      'FLEET Leeward Squadron: HOLD',
      'FLEET Frigate Squadron: MOVE Mona Passage',
      'FLEET Windward Squadron: STANCE AVOID',
      'FORM Flying Squadron FROM HMS Amazon',
      'FLEET Flying Squadron: MOVE Leeward Islands',
    ));
    expect(errs(r)).toEqual(['line 10: only 3 fleets may move in a turn (rules VI); Flying Squadron is number 4 and will hold. HOLD and REPAIR do not count']);
    // The move stays in the orders: the resolver holds the fleet, and logs it.
    expect(r.orders?.fleets.filter((f) => f.move).map((f) => f.fleetId)).toEqual(['f3', 'f4', 'f5', 'Flying Squadron']);
  });

  it('follows the campaign setting', () => {
    const s = caribbean();
    s.settings = { ...s.settings, maxFleetsMoved: 1 };
    const r = parseOrders(msg('FLEET Windward Squadron: MOVE Mona Passage', 'FLEET Frigate Squadron: MOVE Mona Passage'), s, { power: 'british' });
    expect(errs(r)).toEqual(['line 4: only 1 fleets may move in a turn (rules VI); Frigate Squadron is number 2 and will hold. HOLD and REPAIR do not count']);
  });
});

describe('FORM', () => {
  it('forms a fleet from ships in one place; the new fleet takes orders, before or after the FORM line', () => {
    const r = parse(msg(
      'FLEET Flying Squadron: STANCE AVOID',
      'FORM "Flying Squadron" FROM HMS Tartar, Cerberus',
      'FLEET flying squadron: MOVE Mona Passage',
    ));
    expect(r.errors).toEqual([]);
    expect(r.orders?.forms).toEqual([{ name: 'Flying Squadron', shipIds: ['b4', 'b5'], line: 4 }]);
    expect(r.orders?.fleets).toEqual([
      { fleetId: 'Flying Squadron', stance: 'avoid', move: { leaveHarbor: false, route: ['mona-passage'], enterHarbor: false }, lines: [3, 5] },
    ]);
  });

  it('a new fleet formed in harbor starts in harbor', () => {
    const r = parse(msg('FORM Detached FROM HMS Defiance', 'FLEET Detached: MOVE Windward Passage'));
    expect(warns(r)).toEqual(['line 4: fleet Detached is in harbor: LEAVE HARBOR added (costs 1 mp)']);
  });

  it('ships without commas are read greedily', () => {
    const r = parse(msg('FORM Flying Squadron FROM HMS Tartar HMS Cerberus'));
    expect(r.errors).toEqual([]);
    expect(r.orders?.forms[0]?.shipIds).toEqual(['b4', 'b5']);
  });

  it('the new name is taken by one of your fleets', () => {
    expect(errs(parse(msg('FORM Jamaica Squadron FROM HMS Tartar')))).toEqual([
      "line 3: you already have a fleet called 'Jamaica Squadron'; choose another name for the new fleet",
    ]);
    expect(errs(parse(msg('FORM A FROM HMS Tartar', 'FORM a FROM HMS Cerberus')))).toEqual([
      "line 4: a fleet called 'A' is already formed on line 3; choose another name",
    ]);
  });

  it('the new name may not be a fleet id, of any power (fleet orders name a new fleet by its name)', () => {
    expect(errs(parse(msg('FORM F6 FROM HMS Tartar')))).toEqual(["line 3: 'F6' is written like a fleet id (f1, f2, ...); choose a name in words for the new fleet"]);
    // Any name of the id form, not only ids in use, and however it is spaced.
    expect(parse(msg('FORM F 99 FROM HMS Tartar')).errors.map((e) => e.code)).toEqual(['orders/form_name_taken']);
  });

  it('an unknown ship, with the nearest of yours', () => {
    expect(errs(parse(msg('FORM Flying Squadron FROM HMS Tarter, HMS Cerberus')))).toEqual([
      "line 3: no ship of yours called 'HMS Tarter'; did you mean 'HMS Tartar'?",
    ]);
  });

  it('a ship of another power', () => {
    const r = parse(msg('FORM Flying Squadron FROM HMS Tartar, Redoutable'));
    // Told as a name nobody has ("Redoubtable" would get the very same words).
    expect(errs(r)).toEqual(["line 3: no ship of yours called 'Redoutable'"]);
    expect(errs(parse(msg('FORM Flying Squadron FROM HMS Tartar, Redoubtable')))).toEqual(["line 3: no ship of yours called 'Redoubtable'"]);
    expect(r.orders?.forms).toEqual([]);
  });

  it('ships not in one place', () => {
    expect(errs(parse(msg('FORM Flying Squadron FROM HMS Tartar, HMS Amazon')))).toEqual([
      'line 3: the ships of a new fleet must be in one place (same node, same harbor): HMS Tartar at Windward Passage (at sea), HMS Amazon at St. Kitts (at sea)',
    ]);
  });

  it('same node but not the same harbor state is not one place', () => {
    const s = caribbean();
    s.fleets.find((f) => f.id === 'f4')!.inHarbor = false;
    const r = parseOrders(msg('FORM X FROM HMS Pique, HMS Defiance'), s, { power: 'british' });
    expect(r.errors.map((e) => e.code)).toEqual(['orders/form_not_together']);
  });

  it('a ship named twice', () => {
    expect(errs(parse(msg('FORM A FROM HMS Tartar, HMS Tartar')))).toEqual(['line 3: HMS Tartar is named twice']);
    expect(errs(parse(msg('FORM A FROM HMS Tartar', 'FORM B FROM HMS Tartar')))).toEqual(['line 4: HMS Tartar already goes to A (FORM on line 3)']);
  });

  it('a FORM without FROM, without a name, without ships', () => {
    expect(errs(parse(msg('FORM Flying Squadron HMS Tartar', 'FORM FROM HMS Tartar', 'FORM X FROM')))).toEqual([
      'line 3: FORM needs FROM: FORM <new fleet> FROM <ship>, <ship> ...',
      'line 4: FORM needs a name for the new fleet: FORM <new fleet> FROM <ship>, <ship> ...',
      'line 5: FORM X names no ships: FORM <new fleet> FROM <ship>, <ship> ...',
    ]);
  });

  it('orders for a fleet whose FORM failed', () => {
    expect(errs(parse(msg('FORM Flying FROM HMS Tarter', 'FLEET Flying: HOLD')))).toEqual([
      "line 3: no ship of yours called 'HMS Tarter'; did you mean 'HMS Tartar'?",
      'line 4: Flying is not formed: the FORM on line 3 has errors',
    ]);
  });
});

describe('MISSION TARGET', () => {
  it('names a port', () => {
    const r = parse(msg('MISSION TARGET Cap Francais'));
    expect(r.errors).toEqual([]);
    expect(r.orders?.missionTarget).toBe('cap-francais');
  });

  it('not a port', () => {
    expect(errs(parse(msg('MISSION TARGET Mona Passage')))).toEqual(['line 3: Mona Passage is not a port; MISSION TARGET names the port to raid or blockade']);
  });

  it('an unknown place', () => {
    expect(errs(parse(msg('MISSION TARGET Cap Francois')))).toEqual(["line 3: no place called 'Cap Francois' on the map; did you mean 'Cap Français'?"]);
  });

  it('two targets', () => {
    expect(errs(parse(msg('MISSION TARGET St Kitts', 'MISSION TARGET Cap Francais')))).toEqual([
      'line 4: MISSION TARGET is already St. Kitts (line 3); give one target',
    ]);
  });

  it('MISSION on its own', () => {
    expect(errs(parse(msg('Mission accomplished!')))).toEqual([
      'line 3: write MISSION TARGET <port> to name the port to raid or blockade, FLEET <fleet>: MISSION to give a fleet the mission, or MISSION NONE to decline it',
    ]);
  });
});

describe('MISSION NONE', () => {
  it('declines the mission in force: the set says so, with its line', () => {
    const r = parse(msg('FLEET Jamaica Squadron: HOLD', 'mission none'));
    expect(r.errors).toEqual([]);
    expect(r.orders?.missionNone).toEqual({ line: 4 });
    expect(r.lines.find((l) => l.line === 4)!.status).toBe('order');
  });

  it('takes nothing after it', () => {
    expect(errs(parse(msg('MISSION NONE please')))).toEqual(['line 3: MISSION NONE takes nothing after it']);
  });
});

describe('CREW', () => {
  it('"Any crew rolled must be divided among ships in harbor": CREW names ships like FORM, in priority order; several lines make one list', () => {
    const r = parse(msg('CREW HMS Pique, "HMS Bellerophon"', 'CREW b2'));
    expect(r.errors).toEqual([]);
    expect(r.orders?.crew).toEqual([{ shipIds: ['b6', 'b1'], line: 3 }, { shipIds: ['b2'], line: 4 }]);
  });

  it('a ship at sea is warned about (she takes no crew this turn); unknown, enemy and repeated ships are errors', () => {
    const sea = parse(msg('CREW HMS Tartar'));
    expect(sea.errors).toEqual([]);
    expect(warns(sea)).toEqual(['line 3: HMS Tartar is at sea at Windward Passage: only ships in harbor when the turn begins take on crew, so CREW gives her none this turn']);
    expect(errs(parse(msg('CREW HMS Pikue')))).toEqual(["line 3: no ship of yours called 'HMS Pikue'; did you mean 'HMS Pique'?"]);
    expect(errs(parse(msg('CREW Redoutable')))[0]).toMatch(/^line 3: no ship of yours called 'Redoutable'/);
    expect(errs(parse(msg('CREW HMS Pique', 'CREW HMS Pique')))).toEqual(['line 4: HMS Pique is already on the CREW list (line 3); name each ship once']);
    expect(parse(msg('CREW HMS Pikue')).errors.map((e) => e.code)).toEqual(['orders/crew_unknown_ship']);
    expect(errs(parse(msg('CREW')))).toEqual(['line 3: CREW needs ships: CREW <ship>, <ship> ... (the first named takes replacement crew first)']);
  });
});

describe('robustness', () => {
  it('collects every error of a message, in line order', () => {
    const r = parse(['FLEET Jamica Squadron: HOLD', 'POWER british', 'TURN 2', 'FLEET Windward Squadron: SAIL', 'MISSION TARGET Mona Passage'].join('\n'));
    expect(r.errors.map((e) => e.line)).toEqual([1, 3, 4, 5]);
  });

  it('never throws, whatever the text', () => {
    const words = ['FLEET', 'MOVE', 'FORM', 'FROM', 'POWER', 'TURN', 'END', 'HARBOR', 'Jamaica Squadron', ':', ',', '"', "'", '->', '-', '--', '>', 'St. Kitts', 'Mona', 'HMS Tartar', '\n', 'PASSWORD', 'MISSION', 'TARGET', 'STANCE', 'LEAVE', '\u00a0'];
    fc.assert(fc.property(
      fc.array(fc.oneof(fc.constantFrom(...words), fc.string()), { maxLength: 40 }),
      (parts) => {
        const r = parseOrders(parts.join(' '), state, { power: 'british' });
        expect(Array.isArray(r.errors)).toBe(true);
      },
    ), { numRuns: 300 });
  });
});

describe('more conflicts and names', () => {
  it('REPAIR with a fort attack', () => {
    expect(errs(parse(msg('FLEET Jamaica Squadron: REPAIR', 'FLEET Jamaica Squadron: REDUCE FORT')))).toEqual([
      'line 4: Jamaica Squadron has REPAIR on line 3; it cannot REDUCE FORT in the same turn',
    ]);
    expect(errs(parse(msg('FLEET Jamaica Squadron: ATTACK HARBOR', 'FLEET Jamaica Squadron: REPAIR')))).toEqual([
      'line 4: Jamaica Squadron attacks a port (line 3); it cannot REPAIR in the same turn',
    ]);
  });

  it('a ship that is not afloat cannot join a new fleet', () => {
    const s = caribbean();
    s.fleets.find((f) => f.id === 'f3')!.ships[0]!.status = 'struck';
    const r = parseOrders(msg('FORM A FROM HMS Tartar, HMS Cerberus'), s, { power: 'british' });
    expect(errs(r)).toEqual(['line 3: HMS Tartar is not afloat (struck)']);
  });

  it('a name two places answer to', () => {
    const s = caribbean();
    s.nodes = s.nodes.map((n) => (n.id === 'english-harbour' ? { ...n, name: 'St. Kitts' } : n));
    const r = parseOrders(msg('FLEET Windward Squadron: MOVE Mona Passage, Leeward Islands, St. Kitts'), s, { power: 'british' });
    expect(errs(r)).toEqual(["line 3: 'St. Kitts' could be St. Kitts (st-kitts) or St. Kitts (english-harbour); write the place's id"]);
    const ok = parseOrders(msg('FLEET Windward Squadron: MOVE Mona Passage, Leeward Islands, english-harbour'), s, { power: 'british' });
    expect(ok.errors).toEqual([]);
  });

  it('a fleet name two of your fleets answer to', () => {
    const s = caribbean();
    s.fleets.find((f) => f.id === 'f2')!.name = 'Jamaica Squadron';
    expect(errs(parseOrders(msg('FLEET Jamaica Squadron: HOLD'), s, { power: 'british' }))).toEqual([
      "line 3: 'Jamaica Squadron' could be Jamaica Squadron (id f1) or Jamaica Squadron (id f2); write the fleet's id",
    ]);
  });

  it('an own ship is found before another power\'s ship of the same name', () => {
    const s = caribbean();
    s.fleets.find((f) => f.id === 'f6')!.ships[0]!.name = 'Tartar';
    const r = parseOrders(msg('FORM A FROM Tartar, Cerberus'), s, { power: 'british' });
    expect(r.errors).toEqual([]);
    expect(r.orders?.forms[0]?.shipIds).toEqual(['b4', 'b5']);
  });
});

describe('the example in docs/orders-language.md', () => {
  it('reads without errors', async () => {
    const { readFile } = await import('node:fs/promises');
    const doc = await readFile(new URL('../../docs/orders-language.md', import.meta.url), 'utf8');
    const example = /```\n([\s\S]*?)```/.exec(doc)![1]!;
    const r = parseOrders(example, state, { power: 'british', campaign: { id: 'c1', slug: 'caribbean-1805' } });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.lines.filter((l) => l.status === 'after-end').map((l) => l.line)).toEqual([15, 16, 17]);
    expect(r.orders?.fleets.map((f) => f.fleetId)).toEqual(['Flying Squadron', 'f1', 'f2']);
    expect(r.orders?.missionTarget).toBe('cap-francais');
    expect(r.lines.at(-1)).toEqual({ line: 17, text: 'Horatio', status: 'after-end' });
  });
});
