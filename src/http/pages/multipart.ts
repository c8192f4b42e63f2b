/**
 * A small multipart/form-data reader for the one page form that uploads a file (a new
 * campaign's scenario, pages/newCampaign.ts): the whole body is buffered (the route's
 * bodyLimit caps it) and split on its boundary. Fields and files both come back as text
 * (a scenario is a UTF-8 JSON file); a file field's name also gets `<name>.filename`.
 */
export function parseMultipart(body: Buffer, contentType: string | undefined): Record<string, string> {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (!m) throw Object.assign(new Error('the form has no multipart boundary'), { statusCode: 400 });
  const delimiter = Buffer.from(`--${m[1] ?? m[2]}`);
  const out: Record<string, string> = {};
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    let start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    start += 2; // CRLF after the delimiter
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const part = body.subarray(start, next - 2); // CRLF before the next delimiter
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd !== -1) {
      const head = part.subarray(0, headEnd).toString('utf8');
      const name = /name="([^"]*)"/i.exec(head)?.[1];
      const filename = /filename="([^"]*)"/i.exec(head)?.[1];
      if (name !== undefined && !(name in out)) {
        out[name] = part.subarray(headEnd + 4).toString('utf8');
        if (filename !== undefined) out[`${name}.filename`] = filename;
      }
    }
    at = next;
  }
  return out;
}
