/**
 * The account page's privacy section: its two URLs and words, shared by the section and the routes that
 * answer it (safe in the browser).
 */
export const DATA_EXPORT_PATH = "/shop/account/data-export";
export const DELETE_ACCOUNT_PATH = "/shop/account/delete";
export const PRIVACY_SETTINGS_URL = "/shop/account?tab=settings";
