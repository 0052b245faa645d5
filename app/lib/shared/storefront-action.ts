import type { SubmissionResult } from "@conform-to/react";
import type { FlashMessage } from "./flash";

/**
 * What the storefront's one action (app/web/storefront-action.server.ts)
 * answers when it refuses a form, for the pages' hook
 * (app/components/useStorefrontPage.ts).
 */
export type StorefrontActionData =
  | { intent: "review"; productId: string; toast: FlashMessage; result: SubmissionResult<string[]> }
  | { intent: "alert"; productId: string; toast: FlashMessage }
  | { intent: "unknown"; toast: FlashMessage };
