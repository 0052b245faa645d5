import { z } from "zod";
import { ADMIN_RETURN_STATUSES } from "~/lib/shared/returns";
import { CARRIERS, TRACKING_NUMBER_MAX } from "~/lib/shared/tracking";

import { returnEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { getReturn } from "~/services/returns.server";
import { updateReturn } from "~/services/return-decision.server";

const returnUpdateBody = z.object({
  status: z.enum(ADMIN_RETURN_STATUSES),
  refundShipping: z
    .boolean()
    .optional()
    .meta({ description: "Refund the order's delivery too (once per order), when received" }),
  trackingNumber: z
    .string()
    .max(TRACKING_NUMBER_MAX)
    .optional()
    .meta({ description: "An exchange's replacement parcel: required with shipped" }),
  carrier: z.enum(CARRIERS).optional().meta({ description: "Required with shipped" }),
});

// GET → the return; PUT { status: approved|rejected|received|shipped, refundShipping?, trackingNumber?, carrier? }.
const route = apiRoute({
  GET: apiOperation({
    tag: "Returns",
    summary: "One return",
    access: "returns",
    success: { 200: { description: "The return", schema: returnEnvelope } },
    errors: { 404: "Unknown return" },
    handler: async ({ params }) => {
      return apiJson({ success: true, data: await getReturn(params.id ?? "") });
    },
  }),
  PUT: apiOperation({
    tag: "Returns",
    summary: "Approve, reject or receive a return; ship an exchange's replacement",
    description:
      "Receiving puts the stock back and refunds the lines through the payment provider (the delivery too with refundShipping); an exchange refunds nothing. Rejecting an exchange puts its held units back. `shipped` (an exchange, once received) needs trackingNumber and carrier and mails the shopper. Setting the status a return already has changes nothing, so two admins receiving one parcel refund it once.",
    access: "returns",
    body: returnUpdateBody,
    success: { 200: { description: "The return", schema: returnEnvelope } },
    errors: {
      400: "Invalid fields (`errors` names them), or malformed JSON",
      404: "Unknown return",
      409: "The move is not possible from the return's status (a rejected return cannot be received, a refund is never shipped)",
      502: "Received, but the provider's refund failed: it is retried automatically",
    },
    handler: async ({ context, params, caller, input }) => {
      const by = auditByOf(caller, context);
      const updated = await updateReturn(params.id ?? "", input, by);
      return apiJson({ success: true, message: `Return ${updated.status}`, data: updated });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
