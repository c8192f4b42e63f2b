/**
 * Rules text the exports quote, word for word (a test checks each quote against the files in
 * /work/shared/rules). Kept as constants so `battlePackage` and the renderers stay pure.
 */

/** Steady as She Goes!, IV / VII (Reducing and Attacking Forts). */
export const CAMPAIGN_FORT = 'The fort has 20 hull points, three sections of six crew, and ten guns which can fire in all arcs. Rigging and steerage hits are ignored. The fort surrenders when all crew or hull hits have been eliminated.';

export const CAMPAIGN_FORT_PLACEMENT = 'Attacking a port with a defender’s fleet present allows the defender to place a fort on the board for a miniatures battle (GM may veto any silly placement).';

export const CAMPAIGN_SHOALS = 'If attacked while in harbor, the defending player gets to position the fort on the map and gets to declare a mapboard color as “shoals” of 11-16 feet deep.';

export const CAMPAIGN_CONVOY_FATE = 'Either way, they share the fate of their escorting vessels.';

/** Galleys & Galleons house rules (version 2): Weather Change. */
export const GNG_WEATHER_CHANGE: readonly string[] = [
  "At the beginning of each player’s turn they throw a dice. If there are more than two players (or groups of ships) in a game only the first two to activate that turn throw a wind change dice. On a score of 6 the wind may change direction.",
  "Throw a dice for how much:",
  "1-3 – Wind changes by one point",
  "4-6 – Wind changes by two points",
  "Roll another dice for wind direction:",
  "1 - The wind changes anticlockwise and is backing. -1 to the next wind direction dice throw (down to a minimum score of 1).",
  "2 - The wind changes anticlockwise.",
  "3 - The wind changes anticlockwise and is steady. Ignore the next weather change roll.",
  "4 - The wind changes clockwise and is steady. Ignore the next weather change roll.",
  "5 - The wind changes clockwise.",
  "6 - The wind changes clockwise and is veering. +1 to the next wind direction dice throw (up to a maximum score of 6).",
];

/** Galleys & Galleons house rules: Critical Hits (the lines for sailing ships; galley, steam, unorthodox and flying vessels left out). */
export const GNG_CRITICALS: readonly string[] = [
  "Roll a red dice for the effect, and a white dice in case of secondary rolls.",
  "1 – Quarterdeck (1-3: Captain killed, 4-6: Rudder hit)",
  "2 – Hull (Surface, Submersible or Airship only: 5-6 Holed)",
  "3 – Hull (Surface, Submersible or Airship only: 5-6 Holed)",
  "4 – Rigging",
  "5 – Rigging",
  "6 – Fire (6: Explodes)",
  "Captain killed – The first time this happens the vessel operates at +1Q for the rest of the game. If the vessel had Flagship or Dread Pirate then these abilities are lost. Any subsequent rolls are treated as 1 Hit, but if this is excess damage then the crew strike.",
  "Rudder hit – The vessel must expend two actions in order to turn. The second time this critical occurs the vessel must expend three actions to turn. If it occurs a third time the vessel can no longer turn. Any subsequent occurrences are treated as a Hull hit.",
  "Hull – The vessel takes a point of damage. If this is excess damage then the vessel sinks if it has a hole or the ship’s modified roll was doubled. Otherwise the ship strikes..",
  "Holed – This replaces a Hull critical if it occurs. A surface vessel or submersible is holed, and is treated as if it has the Sluggish special ability for the rest of the game. If the vessel is already Sluggish then it is treated as a Hull critical but the hole is still recorded. A submersible which receives this critical can no longer submerge. An airship which receives this critical can no longer ascend to high altitude. If it is at high altitude it immediately drops to sea-level. Any further occurrences of this critical are treated as a Hull critical. Ornithopters and Gyrocopters never test for this critical; they always take a Hull critical.",
  "Rigging – Sail: The first occurrence of this critical causes the vessel to reduce all movement in all directions by one step – Long becomes Medium, Medium becomes Short and Short becomes 0. The second occurrence reduces all movement by two steps. Any after the second means the vessel cannot move at all, and the crew will strike if it is excess damage. A vessel which has taken two or more rigging hits may no longer use Razee or Sweeps. Razee may be used in a direction which is not In Irons but which has been reduced to zero.",
  "Fire – If the vessel does not immediately explode, then it catches fire, or receives another fire if it already has at least one. At the start of the player’s turn, before any ships activate, roll a dice for each fire on the vessel. If any of them score a 6, the vessel explodes. If the vessel does not explode, then roll for a critical hit, with a +1 to the roll do not test for holes or (work with me here) immediate explosions from a fire. Only one critical is rolled for, regardless of how many fires are on the ship. The vessel rolls activations as normal, but all actions for that turn must be expended fighting one fire. Extinguish one fire on a 1-2 if the ship rolled one action, 1-4 if it rolled two actions and automatically if it rolled three actions. When a ship fights a fire, it may also automatically cut grapples to one opposing ship if it rolls 2 actions or more. This is a free action, and does not reduce the ability to fight the fire.",
  "At the start of a player’s turn, test for any ship not currently on fire which is in contact with a ship which is on fire. If it is simply in contact, then it catches fire on a 1-3. If it is grappled to the ship then it catches fire automatically.",
  "Explode – The vessel is removed. Roll for each vessel within Short distance of the explosion; on a 6 the vessel receives a Fire critical. (Any vessels grappled to the exploding vessel receive 1 hull hit if they roll equal to or less than the exploding vessel’s C value on a D6).",
  "Note: Excess damage scores one critical regardless of how many hits should be applied.",
];

/** Galleys & Galleons house rules: Sinking (sink or strike on excess hull hits). */
export const GNG_SINKING: readonly string[] = [
  "Ships may either sink or strike when they take excess Hull hits depending on the following chart:",
  "Gunnery: Strike unless ship is holed or their total was Doubled in which case it Sinks",
  "Small Arms: Strike",
  "Ramming: Sink",
  "Collision: Roll a D6. On a 2 or less the ship sinks (-1 if C value is lower than that of the ship collided with), otherwise Strike.",
  "Run Aground: Sink",
  "Boarding: Strike",
];

/** Sailpower: Cogs of Valor, "Crewing your cog" and the deck limits. */
export const COGS_SIZES = 'SMALL COG (10 hull): STERN CASTLE 20, MAIN DECK 20, FORECASTLE 10, CROWSNEST 4 LARGE COG (20 hull): STERN CASTLE 20, MAIN DECK 40, FORECASTLE 10, CROWSNEST 4';
export const COGS_CREW_BUDGET = 'A small cog can be manned with up to 30 points of crew, and a large one can take up to 60 points of crew.';
export const COGS_HEROES = 'A cog may only start the game with one hero for every five crewmembers it has.';
export const COGS_FIREPOT_UPGRADE = '2 points additional for a fire pot specialist upgrade. This upgrade gives the crewmember a slingshot and burning oil pots that can be hurled at opposing cogs. A crewmember with this upgrade cannot sail.';
export const COGS_BASIC_CREW = '1 point for a basic crewmember.';
export const COGS_FIREPOT = 'Firepots have range of 12. To attack, start with twelve as a target number, then add +2 if the target is a large cog. Roll a D20 and if the result is under the target number, including the modifier for size if applicable, this weapon scores 1 hull damage and 1 fire to the target cog.';

/** Galleys & Galleons house rules: the blog's two ship profiles with their points (the points formula must give these). */
export const GNG_POINTS_EXAMPLES: readonly string[] = [
  'Assurance - Q3 C3 - Square Rigged, Drilled Soldiers - 36pts',
  'Constant Reformation - Q4 C3 - Square Rig, Trained Gun Crews, Charismatic - 36pts',
];

/** Galleys & Galleons house rules, Sinking: a ship that runs aground (the setup sheet's shoals). */
export const GNG_RUN_AGROUND = 'Run Aground: Sink';

/** Sailpower: Cogs of Valor: where the cogs start (the setup sheet). */
export const COGS_PLACEMENT = 'Once all the players have crewed their cogs they can be placed around the play surface, either on opposing sides, at the corners, or in any manner agreed upon by the players.';

/** Galleys & Galleons house rules: moves and ranges come in three sticks (Critical Hits, Rigging). */
export const GNG_STICKS_TEXT = 'Long becomes Medium, Medium becomes Short and Short becomes 0';

/** Sailpower: Cogs of Valor: the unit of measure (a unit is 2.5 m at either scale). */
export const COGS_SCALE = 'The game can be played in one of two scales: 1/100th in which case the unit of measure is in inches, or 1/250 th in which case the unit of measure is in centimeters.';

/** Sailpower: Cogs of Valor: a sailing cog's speeds. */
export const COGS_SPEEDS = 'If the wind will be coming from behind or within a facing to the left or right, then the speed is up to 24 (broad reach), if the wind is coming from perpendicular to the right or left, then the speed is 18 (beam reach)';

/** Sailpower: Cogs of Valor: the free Leader of each player (the text has "player s" for "player's"). */
export const COGS_LEADER = 'In addition to a player s crewmembers, the player also gets a crewmember to represent themselves as leader. The leader gets all basic upgrades plus one hero upgrade and does not cost points against the budget of that player s cogs. The leader may not be targeted unless there are no other crewmembers on deck.';

/** Sailpower: Cogs of Valor: the hero upgrades and their cost (each 2 points additional). */
export const COGS_HERO_UPGRADES = 'Each hero may only have one hero upgrade.';
