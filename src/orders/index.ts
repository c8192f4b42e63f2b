/** The orders language (SPEC §3; docs/orders-language.md). */
export {
  parseOrders, formatMessage, FLEET_ORDERS_LIST,
  type ParsedOrders, type ParseOptions, type OrderMessage, type EchoLine, type LineStatus, type Severity,
} from './parse.js';
export { describeOrders } from './describe.js';
export { normalise, levenshtein, NameTable, type NameEntry } from './names.js';
export { lex, type Token } from './lex.js';
export { readLines, maskPassword, type SourceLine } from './clean.js';
export { MAX_ORDERS_BYTES, ordersBytes, tooLargeReason, badCharacter, readableText } from './limits.js';
