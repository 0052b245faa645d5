import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvStream, neutraliseCell, restoreCell } from "~/lib/server/csv.server";

async function* rowsOf<T>(rows: T[]) {
  for (const row of rows) yield row;
}

/** The body's bytes as text, the byte-order mark kept (Response.text() would drop it). */
async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return Buffer.from(await new Response(stream).arrayBuffer()).toString("utf8");
}

describe("CSV cells", () => {
  it.each(['=HYPERLINK("http://evil.example")', "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"])(
    "a cell starting like a formula (%j) is written with an apostrophe in front",
    (value) => {
      expect(neutraliseCell(value)).toBe(`'${value}`);
    },
  );

  it("ordinary text, numbers and empty values are written as they are", () => {
    expect(neutraliseCell("Linen shirt, blue")).toBe("Linen shirt, blue");
    expect(neutraliseCell(12.5)).toBe("12.5");
    expect(neutraliseCell(null)).toBe("");
    expect(neutraliseCell(undefined)).toBe("");
  });

  it.each(["=1+1", "'=1+1", "''@x", "'plain", "plain", "-", "", "it's"])(
    "every text survives the round trip exactly (%j)",
    (value) => {
      expect(restoreCell(neutraliseCell(value))).toBe(value);
    },
  );

  it("streams a header and the rows as a spreadsheet reads them, formulas neutralised", async () => {
    const body = await text(
      csvStream(
        [
          { header: "title", value: (row: { title: string; price: number }) => row.title },
          { header: "price", value: (row: { title: string; price: number }) => row.price },
        ],
        rowsOf([
          { title: "=cmd|' /C calc'!A0", price: 10 },
          { title: 'Shirt, "blue"\nnew line', price: 19.9 },
        ]),
      ),
    );
    expect(body.startsWith("\uFEFF")).toBe(true);
    const records = parse(body, { bom: true }) as string[][];
    expect(records).toEqual([
      ["title", "price"],
      ["'=cmd|' /C calc'!A0", "10"],
      ['Shirt, "blue"\nnew line', "19.9"],
    ]);
  });
});
