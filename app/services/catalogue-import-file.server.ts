import { Readable } from "node:stream";
import { CsvError, parse } from "csv-parse";
import { restoreCell } from "~/lib/server/csv.server";
import { AppError } from "~/lib/server/errors.server";
import {
  CATALOGUE_COLUMNS,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  REQUIRED_COLUMNS,
  type CatalogueColumn,
  type ImportRowError,
} from "~/lib/shared/catalogue-csv";

/**
 * A catalogue import's file read into rows of cells (API.md "Back office"):
 * its size, its encoding, its header and each row's shape are refused here,
 * with the row as a spreadsheet numbers it; the cells are judged by
 * catalogue-import-rows.server.ts. (docs/decisions/0016-catalogue-csv.md)
 */

export const CHOOSE_CSV_MESSAGE = "Choose a CSV file to import";
export const IMPORT_REFUSED_MESSAGE =
  "Nothing was imported: correct the rows below and import the file again";
export const FILE_TOO_LARGE_MESSAGE = `The file must be at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB`;
export const NOT_UTF8_MESSAGE =
  "The file is not a UTF-8 text file: save it from the spreadsheet as CSV UTF-8";
export const EMPTY_FILE_MESSAGE = "The file is empty: it needs a header row and at least one row";
export const TOO_MANY_ROWS_MESSAGE = `The file has more than ${MAX_IMPORT_ROWS.toLocaleString("en-US")} rows: split it into smaller files`;
/** A file with thousands of mistakes answers the first ones; they usually share a cause. */
const MAX_REPORTED_ERRORS = 200;

/** 422 with the refused cells: nothing was written. */
export class CatalogueImportRefused extends AppError {
  constructor(
    public readonly rowErrors: ImportRowError[],
    message = IMPORT_REFUSED_MESSAGE,
  ) {
    super(422, message);
    this.name = "CatalogueImportRefused";
  }
}

export function isImportRefused(error: unknown): error is CatalogueImportRefused {
  return error instanceof CatalogueImportRefused;
}

/** The refused cells as an answer carries them: the first ones, in row order. */
export function reportedErrors(errors: readonly ImportRowError[]): ImportRowError[] {
  return [...errors].sort((a, b) => a.row - b.row).slice(0, MAX_REPORTED_ERRORS);
}

export type Cells = Record<CatalogueColumn, string>;

export interface ParsedFile {
  /** Data rows with their spreadsheet row number. */
  rows: { row: number; cells: Cells }[];
}

export const refuse = (errors: ImportRowError[]) => new CatalogueImportRefused(errors);

function decodeUtf8(bytes: Uint8Array): string {
  // A NUL byte is no text a spreadsheet writes: a binary file (or UTF-16), refused before parsing.
  if (bytes.includes(0)) throw new AppError(400, NOT_UTF8_MESSAGE);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError(400, NOT_UTF8_MESSAGE);
  }
}

/** The header's names as the shop's columns; unknown, repeated and missing required ones refused. */
function readHeader(header: string[]): (CatalogueColumn | null)[] {
  const known = new Map<string, CatalogueColumn>(
    CATALOGUE_COLUMNS.map((column) => [column.toLowerCase(), column as CatalogueColumn]),
  );
  const errors: ImportRowError[] = [];
  const seen = new Set<string>();
  const columns = header.map((raw) => {
    const name = raw.trim();
    if (name === "") return null; // a trailing empty header cell (some spreadsheets add one)
    const column = known.get(name.toLowerCase());
    if (!column) {
      errors.push({
        row: 1,
        column: name,
        message: `Unknown column "${name}": the columns are ${CATALOGUE_COLUMNS.join(", ")}`,
      });
      return null;
    }
    if (seen.has(column)) errors.push({ row: 1, column, message: `Column ${column} is given twice` });
    seen.add(column);
    return column;
  });
  for (const required of REQUIRED_COLUMNS) {
    if (!seen.has(required))
      errors.push({ row: 1, column: required, message: `Column ${required} is missing` });
  }
  if (errors.length) throw refuse(errors);
  return columns;
}

/** Splits the text so that the parser works through it chunk by chunk, between which the loop runs. */
function* textChunks(text: string): Generator<string> {
  const size = 64 * 1024;
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

/**
 * The file's rows as cells, each restored from the export's neutralising
 * (restoreCell). Parsed with csv-parse's stream (chunk by chunk, yielding to
 * the event loop); a row is a record, as a spreadsheet shows it.
 */
export async function readCatalogueFile(bytes: Uint8Array): Promise<ParsedFile> {
  if (bytes.byteLength > MAX_IMPORT_BYTES) throw new AppError(413, FILE_TOO_LARGE_MESSAGE);
  const text = decodeUtf8(bytes);
  const parser = Readable.from(textChunks(text)).pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: false }),
  );
  let columns: (CatalogueColumn | null)[] | null = null;
  const rows: ParsedFile["rows"] = [];
  const errors: ImportRowError[] = [];
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row += 1;
      if (!columns) {
        columns = readHeader(record);
        continue;
      }
      if (record.length === 1 && record[0]!.trim() === "") continue; // an empty line
      if (row - 1 > MAX_IMPORT_ROWS) throw refuse([{ row, column: "", message: TOO_MANY_ROWS_MESSAGE }]);
      if (record.length > columns.length && record.slice(columns.length).some((cell) => cell.trim() !== "")) {
        errors.push({
          row,
          column: "",
          message: `Row ${row} has ${record.length} cells; the header has ${columns.length}`,
        });
        continue;
      }
      const cells = Object.fromEntries(CATALOGUE_COLUMNS.map((column) => [column, ""])) as Cells;
      columns.forEach((column, index) => {
        if (column) cells[column] = restoreCell(record[index] ?? "");
      });
      rows.push({ row, cells });
    }
  } catch (error) {
    parser.destroy();
    if (error instanceof CsvError) {
      // The parser counts the records it finished (the header among them): the next one failed.
      const failed = Math.max(row, (error as CsvError & { records?: number }).records ?? 0) + 1;
      throw refuse([{ row: failed, column: "", message: `This row is not valid CSV: ${error.message}` }]);
    }
    throw error;
  }
  // A row refused for its shape is said before an "empty" file: that row is what the admin has to correct.
  if (errors.length)
    throw new CatalogueImportRefused(errors, errors.length === 1 ? errors[0]!.message : undefined);
  if (!columns || rows.length === 0) throw new CatalogueImportRefused([], EMPTY_FILE_MESSAGE);
  return { rows };
}
