/**
 * Printable ship cards (counters) for Galleys & Galleons and Sailpower: Cogs of Valor, one per
 * vessel: what a player keeps beside the model at the table, made from the same conversion as
 * the ruleset's sheet (gng.ts, cogs.ts). Only the sides the package holds whole get cards (a
 * side's package holds its own side; the GM's both: sideView.ts); the fort's card goes to whoever
 * holds the fort whole (the defenders and the GM).
 */
import type { BattlePackage } from './json.js';
import { boxRow, roleOf, sightedText, type BoxRow, wholeSides } from './common.js';
import { cogsView, type CogsVessel } from './cogs.js';
import { gngView, type GngVessel } from './gng.js';
import { renderPage } from './html.js';

export type CardRuleset = 'gng' | 'cogs';

export const CARD_TITLES: Record<CardRuleset, string> = {
  gng: 'Galleys & Galleons: ship cards',
  cogs: 'Sailpower: Cogs of Valor: cog cards',
};

export interface VesselCard {
  /** The side it fights for, e.g. "Great Britain (defending)". */
  side: string;
  name: string;
  subtitle: string;
  /** The big figures, e.g. Q4, C3, 18 points. */
  stats: { label: string; value: string }[];
  /** Boxes to cross at the table. */
  tracks: BoxRow[];
  lines: string[];
}

const sideLabel = (s: BattlePackage['sides'][number]) => `${s.powerName} (${roleOf(s)})`;

function fortSideLabel(pkg: BattlePackage): string {
  const owner = pkg.fort ? pkg.sides.find((s) => s.power === pkg.fort!.owner) : undefined;
  return owner ? sideLabel(owner) : 'The fort';
}

function gngCard(v: GngVessel, side: string): VesselCard {
  return {
    side,
    name: v.name,
    subtitle: `${v.nationality}, ${v.className}`,
    stats: [{ label: 'Q', value: String(v.q) }, { label: 'C', value: String(v.c) }, { label: 'Points', value: String(v.points) }],
    tracks: [
      // Three activation dice: each hit swaps a white die for a damage die (crossed here); three crossed is crippled.
      boxRow('Activation dice (crossed: damaged)', { left: 3 - v.damagedDice, capacity: 3 }),
      boxRow('Rigging criticals', { left: 3, capacity: 3 }),
      boxRow('Fires', { left: 3, capacity: 3 }),
    ],
    lines: [`Traits: ${v.traits.join(', ')}`, v.basis],
  };
}

function cogCard(v: CogsVessel, side: string): VesselCard {
  return {
    side,
    name: v.name,
    subtitle: `${v.nationality}, ${v.className}: ${v.sizeLabel}`,
    stats: [
      { label: 'Hull', value: `${v.hull.left}/${v.hull.capacity}` },
      { label: 'Crew', value: String(v.crew) },
      { label: 'Fire pots', value: String(v.firepots) },
    ],
    tracks: [v.hull],
    lines: [
      ...v.decks.map((d) => `${d.deck}: ${d.crew} of ${d.limit}${d.firepots > 0 ? ` (${d.firepots} fire pot specialist${d.firepots === 1 ? '' : 's'})` : ''}`),
      v.heroesText,
      ...(v.leader ? [v.leader] : []),
      `Crew quality ${v.crewQuality}: ${v.qualityNote}.`,
      ...v.notes.filter((n) => !n.startsWith('From hull')),
    ],
  };
}

/** One card per vessel the package holds whole, side by side, then the fort. */
export function vesselCards(pkg: BattlePackage, ruleset: CardRuleset): VesselCard[] {
  if (ruleset === 'gng') {
    const v = gngView(pkg);
    return [...v.sides.flatMap((s) => s.vessels.map((x) => gngCard(x, sideLabel(s.side)))), ...(v.fort ? [gngCard(v.fort, fortSideLabel(pkg))] : [])];
  }
  const v = cogsView(pkg);
  return [...v.sides.flatMap((s) => s.vessels.map((x) => cogCard(x, sideLabel(s.side)))), ...(v.fort ? [cogCard(v.fort, fortSideLabel(pkg))] : [])];
}

/** What the cards say of the sides seen only across the water (no cards for them). */
export function sightedNotes(pkg: BattlePackage): string[] {
  return pkg.sides.filter((s) => s.seen === 'sighted').map(sightedText);
}

export function renderCardsHtml(pkg: BattlePackage, ruleset: CardRuleset): string {
  return renderPage('cards', pkg, { title: CARD_TITLES[ruleset], cards: vesselCards(pkg, ruleset), sighted: sightedNotes(pkg) });
}
