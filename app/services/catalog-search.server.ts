import { z } from "zod";
import { getDb } from "~/models/db.server";
import { MAX_KEYWORD_LENGTH } from "~/lib/shared/listing-params";
import { badRequest } from "~/lib/server/errors.server";
import { paginationOf, type Paging } from "~/lib/shared/paging";
import { toProductJson, type ProductReadRow } from "~/lib/shared/product";
import { ROW_BY_ID, select, type ProductPage } from "./catalog.server";

/**
 * The storefront's search (SPEC: the search page and `/api/shop/search/{keyword}`): full-text words as
 * prefixes, ranked; when they find nothing, the words by trigram similarity, so that a typo still finds its
 * product. A fixed number of statements whatever the catalogue size, with `$n` bind parameters.
 */

/** Longer keywords are cut here: nobody types more, and the work stays bounded. */

/** The keyword of `/api/shop/search/{keyword}` as the API takes it (the OpenAPI document shows it). */
export const searchKeywordSchema = z
  .string()
  .trim()
  .max(MAX_KEYWORD_LENGTH, `The keyword can be at most ${MAX_KEYWORD_LENGTH} characters`)
  .meta({
    description: "Words to find in title, description, category and brand (whole words and prefixes)",
  });

/** The API's keyword, trimmed; 400 above MAX_KEYWORD_LENGTH characters. */
export function parseSearchKeyword(value: string | undefined): string {
  const parsed = searchKeywordSchema.safeParse(value ?? "");
  if (parsed.success) return parsed.data;
  const messages = parsed.error.issues.map((issue) => issue.message);
  throw badRequest(messages[0]!, { keyword: messages });
}
const MAX_SEARCH_WORDS = 8;
/**
 * How close a misspelt word must be to a word of the product (pg_trgm's
 * word_similarity, 0 to 1). 0.4 forgives one wrong, missing or swapped letter
 * in words of five letters or more ("hodie", "jaket", "sneakres").
 */
const TYPO_SIMILARITY_THRESHOLD = 0.4;

/**
 * The words of a keyword as data: letters and digits only, lower case. "h&m"
 * becomes "hm", as the search vector spells the brand; every other character
 * (".*(%'" included) only separates words, as PostgreSQL's own parser does
 * with the product texts ("levi's" is "levi" and a stop word).
 */
export function searchWords(keyword: string): string[] {
  const words =
    keyword
      .slice(0, MAX_KEYWORD_LENGTH)
      .normalize("NFKC")
      .toLowerCase()
      .replace(/(?<=[\p{L}\p{N}])&(?=[\p{L}\p{N}])/gu, "")
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_SEARCH_WORDS);
}

/** `word:* & word:*`: every word must match, as a whole word or as the start of one. */
export function prefixQuery(words: string[]): string {
  return words.map((word) => `${word}:*`).join(" & ");
}

const SEARCH_TEXT = `(p.title || ' ' || p.category || ' ' || p.brand)`;

/**
 * The products of one page of search matches: `matches` ranks and counts the
 * matches by id, title and score alone, and only the page's rows are then read
 * with their variants and pictures, never the rows of the pages before it.
 */
function pageOfMatches(matches: string): string {
  return `SELECT page_row.*, ids.total
            FROM (${matches}) ids CROSS JOIN LATERAL (${ROW_BY_ID("ids.id")}) page_row
           ORDER BY ids.score DESC, ids.title ASC, ids.id ASC`;
}

/**
 * Full-text search over title, description, category and brand (the GIN
 * tsvector index), best matches first. When nothing matches, a trigram
 * similarity search over title, category and brand forgives typos. One
 * statement when words match; five on the typo path (the search, then a
 * transaction of three); one more for a page past the end.
 */
export async function searchProducts(keyword: string, paging: Paging): Promise<ProductPage> {
  const words = searchWords(keyword);
  if (!words.length) return { products: [], pagination: paginationOf(paging, 0) };
  const offset = (paging.page - 1) * paging.limit;

  const fullText = await select<ProductReadRow & { total: number }>(
    pageOfMatches(
      `SELECT p.id, p.title, ts_rank_cd(p.search_vector, q) AS score, count(*) OVER ()::int AS total
         FROM products p, to_tsquery('english', $1) q
        WHERE p.search_vector @@ q
        ORDER BY score DESC, p.title ASC, p.id ASC
        LIMIT $2 OFFSET $3`,
    ),
    [prefixQuery(words), paging.limit, offset],
  );
  if (fullText.length) {
    return { products: fullText.map(toProductJson), pagination: paginationOf(paging, fullText[0]!.total) };
  }
  if (paging.page > 1) {
    // An empty page past the end: say how many there are instead of guessing at typos.
    const [count] = await select<{ total: number }>(
      `SELECT count(*)::int AS total FROM products p WHERE p.search_vector @@ to_tsquery('english', $1)`,
      [prefixQuery(words)],
    );
    if (count && count.total > 0) return { products: [], pagination: paginationOf(paging, count.total) };
  }
  return searchBySimilarity(words, paging);
}

async function searchBySimilarity(allWords: string[], paging: Paging): Promise<ProductPage> {
  // One- and two-letter words have too few trigrams to tell anything apart.
  const words = allWords.filter((word) => word.length >= 3);
  if (!words.length) return { products: [], pagination: paginationOf(paging, 0) };
  const bind: unknown[] = [...words];
  const matches = words.map((_, index) => `$${index + 1} <% ${SEARCH_TEXT}`).join(" AND ");
  const score = words.map((_, index) => `word_similarity($${index + 1}, ${SEARCH_TEXT})`).join(" + ");
  bind.push(paging.limit, (paging.page - 1) * paging.limit);
  const sql = pageOfMatches(
    `SELECT p.id, p.title, ${score} AS score, count(*) OVER ()::int AS total
       FROM products p
      WHERE ${matches}
      ORDER BY score DESC, p.title ASC, p.id ASC
      LIMIT $${words.length + 1} OFFSET $${words.length + 2}`,
  );
  const { sequelize } = getDb();
  // The `<%` operator (which the trigram index answers) reads its threshold
  // from a setting: SET LOCAL keeps the change inside this transaction.
  const rows = await sequelize.transaction(async (transaction) => {
    await sequelize.query(`SET LOCAL pg_trgm.word_similarity_threshold = ${TYPO_SIMILARITY_THRESHOLD}`, {
      transaction,
    });
    return select<ProductReadRow & { total: number }>(sql, bind, transaction);
  });
  return { products: rows.map(toProductJson), pagination: paginationOf(paging, rows[0]?.total ?? 0) };
}

// ---------------------------------------------------------------------------
// Home banner and sitemap
// ---------------------------------------------------------------------------
