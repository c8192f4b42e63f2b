/**
 * Movement and encounters (SPEC §4 steps 3 and 4; rules VI and VII).
 * See docs/rules-movement.md for every interpretation, with the rule's words beside it.
 */
export { runMovement, executeMovement, type FleetMovement } from './phases.js';
export { previewMovement, type FleetPreview, type PreviewPhase } from './preview.js';
export { fleetMp, activeInPhase, fleetGuns, PHASES, CONVOY_MP } from './mp.js';
export { harborStanding, admissionModifier, hasAttacked, type HarborStanding } from './harbor.js';
export { spotModifier, SIGHTED_ON } from './spotting.js';
export { wantsContact } from './contact.js';
export { planPassage, type Leg, type Plan } from './plan.js';
export { takeCommand, mergeFleetOrders, type Command } from './command.js';
