/** Safe text and attribute values for the SVG map: every user text (scenario names) goes through here. */

/** Characters XML 1.0 forbids, even escaped. */
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

export const GREY = '#8a8f94';

export function escapeXml(text: unknown): string {
  return String(text ?? '').replace(XML_INVALID, '').replace(/[&<>"']/g, (c) => (
    { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }[c]!
  ));
}

/** A colour safe to put in an attribute: #rgb..#rrggbbaa or a plain colour name; grey otherwise. */
export function safeColor(c: string | undefined): string {
  return c && (/^#[0-9a-fA-F]{3,8}$/.test(c) || /^[a-zA-Z]{3,20}$/.test(c)) ? c : GREY;
}

/** A coordinate, to a tenth of a px. */
export function n(v: number): string {
  return Number.isFinite(v) ? (Math.round(v * 10) / 10).toString() : '0';
}
