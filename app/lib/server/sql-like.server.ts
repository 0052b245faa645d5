/**
 * A LIKE or ILIKE pattern that finds `text` anywhere: `%`, `_` and `\` typed into a search are
 * characters to find, not wildcards (PostgreSQL's default escape character is the backslash).
 */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
