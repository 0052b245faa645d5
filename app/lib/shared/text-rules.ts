/**
 * What free text typed into the shop may hold (product titles, descriptions
 * and materials, banner texts, addresses, reviews): no control characters but the white space people type (tab and
 * line breaks). NUL above all: the database driver's escaping stores it as the
 * two characters "\0", so it is refused with a message like the others.
 * Plain functions, no zod: safe to import in the browser.
 */
const CONTROL_CHARACTER = /\p{Cc}/u;
const TYPED_WHITE_SPACE = /[\t\n\r]/g;

export function hasControlCharacter(value: string): boolean {
  return CONTROL_CHARACTER.test(value.replace(TYPED_WHITE_SPACE, ""));
}

export function controlCharacterMessage(name: string): string {
  return `${name} cannot contain control characters (such as NUL)`;
}
