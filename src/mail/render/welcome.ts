/**
 * The mail a new player receives: their power, password, how to write orders (the
 * language in brief, with an example made from their own fleets), every node name of the
 * map, the deadline, and a map of what their power can see.
 */
import { mapFromView } from '../../map/svg.js';
import type { PowerView } from '../../rules/view.js';
import { formatDeadline } from '../../words/time.js';
import { missionText } from '../../words/missions.js';
import { exampleOrders } from '../../words/ordersExample.js';
import { mapAttachments } from './mapAttachments.js';
import type { RenderedMail } from './turnReport.js';
import { renderParts } from './templates.js';

export interface WelcomeInput {
  campaignName: string;
  /** What the CAMPAIGN line of the orders takes. */
  campaignSlug: string;
  /** The power key. */
  power: string;
  playerName: string;
  /** The password, in clear, this once (only its hash is stored). */
  password: string;
  /** When orders for the open turn are due; null when the GM has set none. */
  deadline: Date | string | null;
  view: PowerView;
  /** The address orders are mailed to (the campaign's inbox). */
  ordersAddress?: string | null;
  /** The web form, when the service is reachable from outside. */
  webUrl?: string | null;
  /** The campaign date of the open turn ("January 1805"). */
  date?: string | null;
  /** The player's time zone for the deadline (IANA name); UTC when absent. */
  timeZone?: string;
  /** A stand-in's welcome (docs/absences.md): whose place they take, and the last day their password works. */
  standIn?: { forPlayer: string; until: string } | null;
}

/** The orders language in brief (SPEC §3), as a player reads it. */
export const ORDERS_BRIEF: readonly { form: string; meaning: string }[] = [
  { form: 'CAMPAIGN <campaign>', meaning: 'which campaign (first lines of the message)' },
  { form: 'POWER <power>', meaning: 'your power' },
  { form: 'PASSWORD <password>', meaning: 'your password' },
  { form: 'TURN <n>', meaning: 'optional; if given it must be the open turn' },
  { form: 'FLEET <fleet>: MOVE <node> <node> ... [HARBOR]', meaning: 'sail this route from where the fleet stands; HARBOR enters harbor at the end' },
  { form: 'FLEET <fleet>: LEAVE HARBOR [MOVE ...]', meaning: 'leaving harbor costs 1 mp' },
  { form: 'FLEET <fleet>: HOLD', meaning: 'stay where it is' },
  { form: 'FLEET <fleet>: REPAIR', meaning: 'repair in harbor; the fleet cannot move this turn' },
  { form: 'FLEET <fleet>: STANCE ENGAGE | AVOID | ENGAGE IF STRONGER', meaning: 'what the fleet does when it meets the enemy' },
  { form: 'FLEET <fleet>: DROP SLOW', meaning: 'in a pursuit, slower ships drop out' },
  { form: 'FLEET <fleet>: MISSION', meaning: 'this fleet carries out your mission' },
  { form: 'FLEET <fleet>: REDUCE FORT', meaning: 'bombard an enemy port with no defenders' },
  { form: 'FLEET <fleet>: ATTACK HARBOR', meaning: 'attack an enemy port with defenders' },
  { form: 'FORM <new fleet> FROM <ship>, <ship> ...', meaning: 'make a new fleet of ships in one place' },
  { form: 'MISSION TARGET <port>', meaning: 'the port to raid or blockade' },
  { form: 'END', meaning: 'anything below is ignored (signatures, quoted mail)' },
];

export async function renderWelcome(input: WelcomeInput): Promise<RenderedMail> {
  const { view } = input;
  const me = view.powers.find((p) => p.key === input.power);
  const powerName = me?.name ?? input.power;
  const powerNames = new Map(view.powers.map((p) => [p.key, p.name]));
  const owner = new Map(view.ports.map((p) => [p.node, p.owner]));
  const nodeName = (id: string | null) => (id ? view.nodes.find((nd) => nd.id === id)?.name ?? id : '');
  const classes = new Map(view.shipClasses.map((c) => [c.key, c]));
  const map = await mapAttachments(mapFromView(view, { title: `${input.campaignName}: ${powerName} at the start` }), view.turn, `welcome-${input.power}`);
  const nodes = (kind: 'port' | 'sea' | 'box') => view.nodes.filter((nd) => nd.kind === kind)
    .map((nd) => ({ id: nd.id, name: nd.name, owner: kind === 'port' ? powerNames.get(owner.get(nd.id) ?? '') ?? '' : '' }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const data = {
    title: `Welcome — you command ${powerName}`,
    campaignName: input.campaignName,
    playerName: input.playerName,
    powerName, powerKey: input.power,
    campaignSlug: input.campaignSlug,
    password: input.password,
    turn: view.turn,
    date: input.date ?? null,
    deadline: formatDeadline(input.deadline, input.timeZone),
    ordersAddress: input.ordersAddress ?? null,
    webUrl: input.webUrl ?? null,
    mission: missionText(view.mission, nodeName),
    fleets: view.fleets.map((f) => ({
      name: f.name, where: `${nodeName(f.at)}${f.inHarbor ? ' (in harbor)' : ' (at sea)'}`,
      ships: f.ships.filter((s) => s.status === 'afloat').map((s) => `${s.name} (${classes.get(s.classKey)?.name ?? s.classKey}, ${classes.get(s.classKey)?.mp ?? '?'} mp)`),
    })),
    example: exampleOrders(input, input.password),
    brief: ORDERS_BRIEF,
    ports: nodes('port'),
    seas: nodes('sea'),
    boxes: nodes('box'),
    vpGoal: view.vpGoal,
    mapCid: map.inline.cid,
    mapFile: map.file.filename,
    standIn: input.standIn ?? null,
  };
  const { text, html } = renderParts('welcome', data);
  const subject = input.standIn ? `[${input.campaignName}] You stand in for ${powerName} until ${input.standIn.until}` : `[${input.campaignName}] Welcome: you command ${powerName}`;
  return { subject, text, html, attachments: [map.inline, map.file] };
}
