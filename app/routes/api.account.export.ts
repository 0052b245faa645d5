import { z } from "zod";
import { exportOwnData } from "~/services/privacy/privacy.server";
import { apiOperation, apiRoute } from "~/web/api.server";
import { dataExportResponse } from "~/web/privacy-answers.server";

// GET → the caller's data as a JSON attachment (at most 5 an hour).
const route = apiRoute({
  GET: apiOperation({
    tag: "Privacy",
    summary: "Download everything the shop holds about the caller, as one JSON file",
    description:
      "Sections: account, addresses, carts, orders with their lines, payments, returns and exchanges, reviews, stock alerts, wishlist, marketing consents, store credit and gift cards, audit entries about the caller. Never a password hash, two-factor secret, backup code, token or session id.",
    access: "signed-in",
    success: {
      200: {
        description: "A JSON attachment (`Content-Disposition: attachment`)",
        schema: z.record(z.string(), z.unknown()),
      },
    },
    errors: { 401: "Not signed in", 429: "More than 5 downloads in an hour" },
    handler: async ({ caller }) => dataExportResponse(await exportOwnData(caller.id)),
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
