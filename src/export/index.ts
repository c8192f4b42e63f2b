/** Battle export: the package model, the formats, and the one entry point. */
export {
  battlePackage, canReceivePackage, packageForPower, packageForReader, packageShip, BattleNotFound,
} from './package.js';
export type {
  BattlePackage, PackageShip, PackageSide, PackageFort, PackageConvoy, Track, MastTrack, SectionTrack,
} from './package.js';
export { BattlePackageSchema, renderJson } from './json.js';
export { renderBattle, isExportFormat, EXPORT_FORMATS, type ExportFormat, type RenderedExport } from './render.js';
export { renderWsimHtml, wsimLog, wsimFortLog } from './wsim.js';
export { renderWsimPdf } from './pdf.js';
export { renderBtqHtml, btqCard, btqView } from './btq.js';
export { renderGngHtml, gngShip, gngFort, gngQuality, gngCombat, gngPoints, gngDamagedDice } from './gng.js';
export { renderCogsHtml, cogsShip, cogsFort, cogHull, cogDecks } from './cogs.js';
export { battleWeather } from './wind.js';
export { FORT_GUN } from './fort.js';
export { PAPERS, PAPER_NAMES, isPaper, type Paper } from './paper.js';
