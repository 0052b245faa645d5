import { getConfig } from "~/lib/server/config.server";

/** `path` on the shop's public origin (APP_URL): what a canonical link and structured data name. */
export function publicUrl(path: string): string {
  return new URL(path, `${getConfig().appUrl}/`).toString();
}
