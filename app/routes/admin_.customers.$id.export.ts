import type { LoaderFunctionArgs } from "react-router";
import { exportCustomerData } from "~/services/privacy/privacy.server";
import { auditByOf } from "~/web/audit.server";
import { requireArea } from "~/web/auth.server";
import { runOrRefuse } from "~/web/form-action.server";
import { dataExportResponse } from "~/web/privacy-answers.server";
import { redirectWithFlash } from "~/web/session.server";

/**
 * The customers page's "Download": the file of `GET /api/admin/customers/{id}/export`, on the audit log.
 * A shopper gone meanwhile (erased by someone else) goes back to the list with the reason.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireArea(request, "customers");
  return runOrRefuse(
    async () => dataExportResponse(await exportCustomerData(params.id ?? "", auditByOf(user, context))),
    (error) => redirectWithFlash(request, "/admin/customers", { type: "error", message: error.message }),
  );
}
