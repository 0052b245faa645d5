import { z } from "zod";
import { exportCustomerData } from "~/services/privacy/privacy.server";
import { apiOperation, apiRoute } from "~/web/api.server";
import { auditByOf } from "~/web/audit.server";
import { dataExportResponse } from "~/web/privacy-answers.server";

// GET → the shopper's data as the same JSON attachment they would download; on the audit log.
const route = apiRoute({
  GET: apiOperation({
    tag: "Privacy",
    summary:
      "Download a shopper's data on their request (the file they would download, with their guest orders)",
    access: "customers",
    success: {
      200: {
        description: "A JSON attachment (`Content-Disposition: attachment`)",
        schema: z.record(z.string(), z.unknown()),
      },
    },
    errors: { 404: "No such shopper (or already erased)" },
    handler: async ({ context, params, caller }) =>
      dataExportResponse(await exportCustomerData(params.id ?? "", auditByOf(caller, context))),
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
