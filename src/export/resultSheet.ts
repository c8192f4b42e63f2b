/**
 * Result sheets: a printable sheet per ruleset that carries the table's result back to the
 * campaign. It mirrors that ruleset's log in its own damage measures (WS&IM boxes with guns
 * left and right, BtQ's fleet-log tallies, G&G hits and criticals, Cogs hull and crew
 * points by deck), with the ship's start on it, a fate to tick, the winner, and a line for
 * each side's captain to sign. The battle code (battleCode.ts) is on every page: the import
 * checks it, so the sheet of another battle is caught. Pure.
 */
import type { BattlePackage, PackageShip } from './json.js';
import { renderPage } from './html.js';
import { roleOf, sum } from './common.js';
import { gngDamagedDice } from './gng.js';
import { cogOf, fortUnit, shipUnit, RULESET_NAMES, type Ruleset, type Unit } from './convert/index.js';
import { GNG_CRITICAL_KINDS } from './convert/gng.js';

/** A cell of the sheet: room to write (with what the ship had), or a figure printed. */
export interface SheetCell { write: boolean; text: string }
export interface SheetRow { name: string; detail: string; cells: SheetCell[] }

export interface ResultSheet {
  ruleset: Ruleset;
  rulesetName: string;
  title: string;
  code: string;
  head: string;
  columns: string[];
  sides: { powerName: string; roleText: string; rows: SheetRow[] }[];
  fort: { columns: string[]; row: SheetRow } | null;
  fates: string[];
  winners: string[];
  howTo: string[];
  signatures: string[];
}

const write = (text: string): SheetCell => ({ write: true, text });
const shown = (text: string): SheetCell => ({ write: false, text });
const blank = (n: number): SheetCell[] => Array.from({ length: n }, () => write(''));
const of = (n: number) => `of ${n}`;
const each = (xs: readonly { left: number }[]) => `of ${xs.map((x) => x.left).join('/')}`;

/** One ship's line as mailed (src/export/convert/sheetLines.ts reads it). */
const MAIL_EXAMPLE: Record<Ruleset, string> = {
  wsim: '"Bellerophon: hull 2, rigging 0/1/0, guns left 1, guns right 0, crew 1/0/0, struck"',
  btq: '"Bellerophon: hull 2, rigging 1, guns 1, crew 3, afloat"',
  gng: '"Bellerophon: hits 2, criticals rigging holed, taken by France"',
  cogs: '"Orient: hull points 3, main deck 2, forecastle 1, sunk"',
};

const FATE_WORDS = ['afloat', 'struck', 'taken by the enemy', 'sunk', 'blew up', 'left the table'];

interface Layout {
  columns: (pkg: BattlePackage) => string[];
  cells: (u: Unit, pkg: BattlePackage) => SheetCell[];
  fortColumns: string[];
  fortCells: (u: Unit) => SheetCell[];
  howTo: string[];
}

const carronades = (pkg: BattlePackage) => pkg.sides.some((s) => s.ships.some((x: PackageShip) => x.carronades.capacity > 0));

const LAYOUTS: Record<Ruleset, Layout> = {
  wsim: {
    columns: (pkg) => ['Hull lost', 'Rigging lost (fore/main/mizzen)', 'Guns lost, left', 'Guns lost, right',
      ...(carronades(pkg) ? ['Carronades lost, left / right'] : []), 'Crew lost (by section)'],
    cells: (u, pkg) => [write(of(u.hull.left)), write(each(u.rigging)), write(of(u.guns.left)), write(of(u.guns.left)),
      ...(carronades(pkg) ? [write(`of ${u.carronades.left} a side`)] : []), write(each(u.crew))],
    fortColumns: ['Hull lost', 'Guns lost (all arcs)', 'Crew lost (by section)'],
    fortCells: (u) => [write(of(u.hull.left)), write(of(u.guns.left)), write(each(u.crew))],
    howTo: [
      'Copy the boxes crossed off each ship log during the battle. Guns: each broadside as it lost them.',
      'The campaign keeps one gun count a broadside: it takes the mean of the left and right losses, rounded up.',
    ],
  },
  btq: {
    columns: () => ['Hull lost', 'Rigging lost (all masts)', 'Guns lost (a broadside)', 'Carronades lost', 'Crew lost (all sections)'],
    cells: (u) => [write(of(u.hull.left)), write(of(sum(u.rigging.map((m) => m.left)))), write(of(u.guns.left)),
      write(of(u.carronades.left)), write(of(sum(u.crew.map((c) => c.left))))],
    fortColumns: ['Hull lost', 'Guns lost (all arcs)', 'Crew lost (all sections)'],
    fortCells: (u) => [write(of(u.hull.left)), write(of(u.guns.left)), write(of(sum(u.crew.map((c) => c.left))))],
    howTo: [
      'Copy the damage taken tally of the fleet log, ship by ship.',
      'Rigging and crew totals are crossed off the campaign\'s boxes mast by mast (fore first) and section by section (first first).',
    ],
  },
  gng: {
    columns: () => ['Damaged dice at the start', 'Hits taken', `Criticals taken (${GNG_CRITICAL_KINDS.join(', ')})`],
    cells: (u) => [shown(String(gngDamagedDice(u.hull))), write(''), write('')],
    fortColumns: ['Damaged dice at the start', 'Hits taken', 'Criticals taken (hull, holed, captain, fire)'],
    fortCells: (u) => [shown(String(gngDamagedDice(u.hull))), write(''), write('')],
    howTo: [
      'Count every hit that swapped a white die for a damaged one, and write each critical rolled (a Hull critical is a point of damage too).',
      'The campaign: a damaged die is a third of the hull; Holed leaves a quarter; each Rigging critical takes a mast. Excess damage: strike or sink.',
    ],
  },
  cogs: {
    columns: () => ['Hull points lost', 'Stern castle crew lost', 'Main deck crew lost', 'Forecastle crew lost', "Crow's nest crew lost"],
    cells: (u) => {
      const cog = cogOf(u);
      return [write(of(cog.hull)), ...cog.decks.map((d) => write(of(d.crew))), write('')];
    },
    fortColumns: ['Hull points lost', 'Stern castle crew lost', 'Main deck crew lost', 'Forecastle crew lost'],
    fortCells: (u) => { const cog = cogOf(u); return [write(of(cog.hull)), ...cog.decks.map((d) => write(of(d.crew)))]; },
    howTo: [
      'Write the hull points each cog lost and the crewmembers lost on each deck (killed or captured; fire pot specialists count as crewmembers).',
      'The campaign takes the share of hull and of each deck\'s crew left back into its boxes. A cog at no hull sinks.',
    ],
  },
};

export function resultSheet(pkg: BattlePackage, ruleset: Ruleset, code: string): ResultSheet {
  const layout = LAYOUTS[ruleset];
  const name = RULESET_NAMES[ruleset];
  const columns = layout.columns(pkg);
  return {
    ruleset,
    rulesetName: name,
    title: `${name}: result sheet`,
    code,
    head: `${pkg.campaign}: battle ${pkg.battleId}, turn ${pkg.turn}, ${pkg.date}, ${pkg.location.description}`,
    columns,
    sides: pkg.sides.map((side) => ({
      powerName: side.powerName,
      roleText: roleOf(side),
      // A side seen across the water (sideView.ts) gets its rows to write in, without its start: that is its own log's.
      rows: side.seen === 'whole'
        ? side.ships.map((s) => ({ name: s.name, detail: s.className, cells: layout.cells(shipUnit(s), pkg) }))
        : side.sighted.map((s) => ({ name: s.name, detail: s.className, cells: blank(columns.length) })),
    })),
    fort: pkg.fortInSight ? {
      columns: layout.fortColumns,
      row: {
        name: `Fort of ${pkg.fortInSight.portName}`, detail: `${pkg.fortInSight.ownerName}; surrendered?`,
        cells: pkg.fort ? layout.fortCells(fortUnit(pkg.fort)) : blank(layout.fortColumns.length),
      },
    } : null,
    fates: FATE_WORDS,
    winners: [...pkg.sides.map((s) => s.powerName), 'nobody (a drawn action)'],
    howTo: [...layout.howTo, `Enter the sheet on the GM's battle page ("Convert a result sheet") with its battle code, ${code}; the conversion is shown before anything is stored.`,
      `Or each side mails its lines with its orders: "BATTLE ${pkg.battleId} RESULT ${code} ${ruleset.toUpperCase()}", then one line a ship as written here (${MAIL_EXAMPLE[ruleset]}), "Winner: <power, or nobody>", and "END BATTLE". It is stored when both sides' lines agree.`],
    signatures: pkg.sides.map((s) => s.powerName),
  };
}

export function renderResultSheetHtml(pkg: BattlePackage, ruleset: Ruleset, code: string): string {
  return renderPage('result-sheet', pkg, { sheet: resultSheet(pkg, ruleset, code) });
}
