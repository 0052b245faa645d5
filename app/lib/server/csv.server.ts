import { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { stringify } from "csv-stringify";

/**
 * The shop's CSV files (order and catalogue exports, the catalogue import):
 * UTF-8 with a byte-order mark (so that a spreadsheet opens accents right),
 * comma-separated, a header row, CRLF line ends as RFC 4180 says.
 *
 * A spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return as a formula ("CSV injection"). Every exported text cell goes
 * through `neutraliseCell`, which puts an apostrophe in front (the mark
 * spreadsheets themselves use for "this is text"); `restoreCell` takes exactly
 * one such apostrophe off again on import. A text that already starts with
 * apostrophes before such a character gets one more, so that the round trip
 * gives back every text exactly.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const NEUTRALISED = /^'+[=+\-@\t\r]/;

const CSV_CONTENT_TYPE = "text/csv; charset=utf-8";
const BYTE_ORDER_MARK = "\uFEFF";

/** A cell as it is written to a CSV file: formulas neutralised, null as empty. */
export function neutraliseCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") return String(value);
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A cell as read from a CSV file the shop (or a spreadsheet) wrote: the neutralising apostrophe taken off. */
export function restoreCell(value: string): string {
  return NEUTRALISED.test(value) ? value.slice(1) : value;
}

/**
 * A streamed CSV body: the header, then each row of `rows` as it comes, so a
 * large export is never held in memory. Cells are neutralised here, once, for
 * every export.
 */
export function csvStream<Row>(
  columns: readonly { header: string; value: (row: Row) => string | number | boolean | null | undefined }[],
  rows: AsyncIterable<Row>,
): ReadableStream<Uint8Array> {
  const stringifier = stringify({ record_delimiter: "windows", bom: false });
  const source = Readable.from(
    (async function* () {
      yield columns.map((column) => column.header);
      for await (const row of rows) yield columns.map((column) => neutraliseCell(column.value(row)));
    })(),
  );
  const withBom = Readable.from(
    (async function* () {
      yield Buffer.from(BYTE_ORDER_MARK, "utf8");
      for await (const chunk of source.pipe(stringifier)) yield chunk as Buffer;
    })(),
  );
  return createReadableStreamFromReadable(withBom) as unknown as ReadableStream<Uint8Array>;
}

/** The answer for a CSV download named `filename` (letters, digits, dots and dashes). */
export function csvResponse(body: ReadableStream<Uint8Array>, filename: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": CSV_CONTENT_TYPE,
      "Content-Disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "_")}"`,
      "Cache-Control": "no-store",
    },
  });
}
