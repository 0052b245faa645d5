import { z } from "zod";
import { giftCardBalance } from "~/services/gift-cards/cards.server";
import { apiJson, apiOperation, apiRoute } from "~/web/api.server";
import { dateTime } from "~/web/openapi/answers.server";
import { dataEnvelope, money } from "~/web/openapi/schemas.server";
import { clientKeyOf } from "~/web/request.server";
import { getSessionUser } from "~/web/session.server";

// GET ?code= → { last4, balance, expiresAt }; a wrong code is a 404 without a hint, and counts (429 past 10 an hour).
const route = apiRoute({
  GET: apiOperation({
    tag: "Gift cards",
    summary: "What a gift card can pay now, by its code",
    access: "public",
    query: z.object({
      code: z.string().meta({
        description: "The card's code as mailed (XXXX-XXXX-XXXX-XXXX; case and dashes do not matter)",
      }),
    }),
    success: {
      200: {
        description:
          "The card's last four characters, what it can pay (0 once disabled or expired) and its expiry",
        schema: dataEnvelope(
          z.object({ last4: z.string().length(4), balance: money, expiresAt: dateTime.nullable() }),
        ),
      },
    },
    errors: {
      404: "No card has this code",
      429: "Too many wrong codes from this client or account in the last hour (Retry-After says when to try again)",
    },
    handler: async ({ request, context }) => {
      const code = new URL(request.url).searchParams.get("code");
      const user = await getSessionUser(request);
      const balance = await giftCardBalance(code, {
        clientKey: clientKeyOf(context),
        userId: user?.id ?? null,
      });
      return apiJson({ success: true, data: balance });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
