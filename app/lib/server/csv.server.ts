import { stringify } from "csv-stringify/sync";
import { getLogger } from "./logger.server";

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
 * The last line of a download that failed part-way: the status and the first
 * lines are sent by then, so the file itself says that it is incomplete.
 */
export const CSV_ERROR_MARKER =
  "#ERROR: the export failed part-way; this file is incomplete. Please download it again.";

/** How many rows are written to CSV text at once (the reading of rows comes in batches too). */
const ROWS_PER_CHUNK = 100;

const csvText = (records: string[][]) => stringify(records, { record_delimiter: "windows" });

/**
 * A streamed CSV body: the header, then each row of `rows` as it comes, so a
 * large export is never held in memory. Cells are neutralised here, once, for
 * every export.
 *
 * An error while the rows are read (the database going away mid-way, a query
 * it refuses) is logged and ends the file with CSV_ERROR_MARKER: it never
 * reaches the stream as an error event that nothing listens to, which would
 * end the process. A client that stops reading stops the reading of rows.
 */
export function csvStream<Row>(
  columns: readonly { header: string; value: (row: Row) => string | number | boolean | null | undefined }[],
  rows: AsyncIterable<Row>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  async function* chunks(): AsyncGenerator<string> {
    yield BYTE_ORDER_MARK + csvText([columns.map((column) => column.header)]);
    let batch: string[][] = [];
    try {
      for await (const row of rows) {
        batch.push(columns.map((column) => neutraliseCell(column.value(row))));
        if (batch.length >= ROWS_PER_CHUNK) {
          yield csvText(batch);
          batch = [];
        }
      }
      if (batch.length) yield csvText(batch);
    } catch (error) {
      getLogger().error({ err: error }, "A CSV export failed part-way; its file ends with the error marker");
      yield (batch.length ? csvText(batch) : "") + csvText([[CSV_ERROR_MARKER]]);
    }
  }
  const source = chunks();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await source.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await source.return(undefined);
    },
  });
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
