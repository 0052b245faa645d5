import { describe, expect, it } from "vitest";
import { isAppError } from "../../app/lib/server/errors.server";
import { parsePaging, pagingQuerySchema } from "../../app/lib/server/paging.server";
import {
  paginationOf,
  parsePagingLeniently,
  parsePositiveInteger,
  wholeNumberUpTo,
  type PagingLimits,
} from "../../app/lib/shared/paging";

/**
 * The one paging module (app/lib/shared/paging.ts and app/lib/server/paging.server.ts):
 * one set of accepted values, read strictly (the API: 400) or leniently (the pages:
 * the defaults), and one `{ page, limit, total, pages }` with one rule for an empty list.
 */

const LIMITS: PagingLimits = { defaultLimit: 24, maxLimit: 100, maxPage: 10_000 };
const query = (text: string) => new URLSearchParams(text);

function refusal(text: string, errors?: Record<string, string[]>) {
  try {
    parsePaging(query(text), LIMITS, { errors });
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { status: error.status, message: error.message, fieldErrors: error.fieldErrors };
  }
  throw new Error(`"${text}" was accepted`);
}

// Every value the parsers must refuse (strict) or ignore (lenient), by what is wrong with it.
const BAD_PAGES: [string, string][] = [
  ["zero", "0"],
  ["negative", "-1"],
  ["non-numeric", "abc"],
  ["a decimal", "2.5"],
  ["an exponent", "1e3"],
  ["a sign", "+2"],
  ["above the maximum", "10001"],
  ["huge", "99999999999999999999"],
];

describe("the accepted values", () => {
  it("are plain whole numbers from 1 to the maximum, blanks around them allowed", () => {
    expect(parsePositiveInteger("7")).toBe(7);
    expect(parsePositiveInteger(" 7 ")).toBe(7);
    expect(wholeNumberUpTo("10000", 10_000)).toBe(10_000);
    expect(wholeNumberUpTo("10001", 10_000)).toBeNull();
    for (const value of [null, undefined, "", " ", "0", "-3", "x", "1.0", "999999999999"]) {
      expect(parsePositiveInteger(value), String(value)).toBeNull();
    }
  });
});

describe("parsePaging, strict (the JSON API)", () => {
  it("takes the defaults when page and limit are missing or empty", () => {
    expect(parsePaging(query(""), LIMITS)).toEqual({ page: 1, limit: 24 });
    expect(parsePaging(query("page=&limit="), LIMITS)).toEqual({ page: 1, limit: 24 });
  });

  it("reads valid values, the maxima included", () => {
    expect(parsePaging(query("page=3&limit=10"), LIMITS)).toEqual({ page: 3, limit: 10 });
    expect(parsePaging(query("page=10000&limit=100"), LIMITS)).toEqual({ page: 10_000, limit: 100 });
  });

  it.each(BAD_PAGES)("answers 400 naming the range for a page that is %s", (_, page) => {
    expect(refusal(`page=${encodeURIComponent(page)}`)).toEqual({
      status: 400,
      message: "page must be a whole number from 1 to 10000",
      fieldErrors: { page: ["page must be a whole number from 1 to 10000"] },
    });
  });

  it.each([
    ["zero", "0"],
    ["negative", "-5"],
    ["non-numeric", "all"],
    ["above the maximum", "101"],
    ["huge", "1000000000000"],
  ])("answers 400 naming the range for a limit that is %s", (_, limit) => {
    expect(refusal(`limit=${limit}`)).toMatchObject({
      status: 400,
      message: "limit must be a whole number from 1 to 100",
    });
  });

  it("names every problem of the query in one answer, the caller's own first", () => {
    const answer = refusal("page=0&limit=x", { sortBy: ["sortBy must be one of …"] });
    expect(answer.message).toBe("sortBy must be one of …");
    expect(Object.keys(answer.fieldErrors ?? {})).toEqual(["sortBy", "page", "limit"]);
    // The caller's problems alone are a 400 too, even with valid paging.
    expect(refusal("page=2", { sortBy: ["sortBy must be one of …"] }).status).toBe(400);
  });

  it("validates with the schema the OpenAPI document shows", () => {
    const schema = pagingQuerySchema(LIMITS);
    expect(schema.safeParse({ page: "2", limit: undefined }).data).toEqual({ page: 2, limit: 24 });
    expect(schema.safeParse({ page: "0" }).success).toBe(false);
  });
});

describe("parsePaging, lenient (the pages)", () => {
  it("reads valid values like the strict parser", () => {
    expect(parsePaging(query("page=3&limit=10"), LIMITS, { lenient: true })).toEqual({ page: 3, limit: 10 });
    expect(parsePagingLeniently(query("page=10000&limit=100"), LIMITS)).toEqual({ page: 10_000, limit: 100 });
  });

  it("takes the defaults when page and limit are missing or empty", () => {
    expect(parsePagingLeniently(query(""), LIMITS)).toEqual({ page: 1, limit: 24 });
    expect(parsePagingLeniently(query("page=&limit="), LIMITS)).toEqual({ page: 1, limit: 24 });
  });

  it.each(BAD_PAGES)("falls back to page 1 for a page that is %s", (_, page) => {
    expect(parsePaging(query(`page=${encodeURIComponent(page)}`), LIMITS, { lenient: true })).toEqual({
      page: 1,
      limit: 24,
    });
  });

  it("falls back to the default limit for a limit out of range", () => {
    for (const limit of ["0", "-1", "ten", "101", "1000000000000"]) {
      expect(parsePagingLeniently(query(`page=2&limit=${limit}`), LIMITS), limit).toEqual({
        page: 2,
        limit: 24,
      });
    }
  });
});

describe("paginationOf", () => {
  it("counts the pages a list fills, the last one partly", () => {
    expect(paginationOf({ page: 1, limit: 10 }, 1)).toEqual({ page: 1, limit: 10, total: 1, pages: 1 });
    expect(paginationOf({ page: 1, limit: 10 }, 10)).toEqual({ page: 1, limit: 10, total: 10, pages: 1 });
    expect(paginationOf({ page: 2, limit: 10 }, 11)).toEqual({ page: 2, limit: 10, total: 11, pages: 2 });
  });

  it("gives an empty list 0 pages", () => {
    expect(paginationOf({ page: 1, limit: 24 }, 0)).toEqual({ page: 1, limit: 24, total: 0, pages: 0 });
  });

  it("keeps the number of a page past the end", () => {
    expect(paginationOf({ page: 9, limit: 10 }, 25)).toEqual({ page: 9, limit: 10, total: 25, pages: 3 });
    expect(paginationOf({ page: 4, limit: 24 }, 0)).toEqual({ page: 4, limit: 24, total: 0, pages: 0 });
  });
});
