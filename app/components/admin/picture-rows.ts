import type { ProductImageJson } from "~/lib/shared/product";

/**
 * The admin form's pictures, as its inputs hold them (`images[0].url`, …):
 * shared by the list (with JavaScript it moves and removes rows itself) and
 * the page's action (without JavaScript the buttons submit the form with one
 * of these intents and the list comes back changed).
 */

export interface PictureFormRow {
  url: string;
  alt: string;
  colour: string;
}

export const PICTURE_INTENTS = {
  /** Stores the chosen files and shows them in the list (no JavaScript). */
  upload: "pictures-upload",
  /** Followed by the picture's index: `picture-up-2`. */
  upPrefix: "picture-up-",
  downPrefix: "picture-down-",
  removePrefix: "picture-remove-",
} as const;

/** The rows after a move or a removal; null when `intent` is none of those. */
export function changePictureRows(intent: string, rows: readonly PictureFormRow[]): PictureFormRow[] | null {
  const indexAfter = (prefix: string) =>
    intent.startsWith(prefix) ? Number(intent.slice(prefix.length)) : Number.NaN;
  const up = indexAfter(PICTURE_INTENTS.upPrefix);
  const down = indexAfter(PICTURE_INTENTS.downPrefix);
  const remove = indexAfter(PICTURE_INTENTS.removePrefix);
  if (Number.isInteger(remove)) return rows.filter((_, at) => at !== remove);
  const from = Number.isInteger(up) ? up : down;
  if (!Number.isInteger(from)) return null;
  const to = Number.isInteger(up) ? from - 1 : from + 1;
  if (from < 0 || from >= rows.length || to < 0 || to >= rows.length) return [...rows];
  const moved = [...rows];
  [moved[from], moved[to]] = [moved[to]!, moved[from]!];
  return moved;
}

/** A product's pictures as rows. */
export function pictureFormRows(images: readonly ProductImageJson[]): PictureFormRow[] {
  return images.map((picture) => ({ url: picture.url, alt: picture.alt, colour: picture.colour ?? "" }));
}

/** The rows a form sent (`images` of conform's payload), as strings. */
export function sentPictureRows(value: unknown): PictureFormRow[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((row): row is Record<string, unknown> => row !== null && typeof row === "object")
    .map((row) => ({
      url: typeof row.url === "string" ? row.url : "",
      alt: typeof row.alt === "string" ? row.alt : "",
      colour: typeof row.colour === "string" ? row.colour : "",
    }))
    .filter((row) => row.url !== "");
}
