/** The error codes of the battle-result converters, declared once. */
export const CONVERT = {
  badMeasure: 'convert/bad_measure',
  duplicateShip: 'convert/duplicate_ship',
  foreignMeasure: 'convert/foreign_measure',
  noFort: 'convert/no_fort',
  unknownShip: 'convert/unknown_ship',
  wrongSheet: 'convert/wrong_sheet',
} as const;

/** A paper size the PDF sheets are not laid out for. */
export const PAPER = {
  unknown: 'paper/unknown',
} as const;
