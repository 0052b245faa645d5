import type { LoaderFunctionArgs } from "react-router";
import { PRIVACY_SETTINGS_URL } from "~/lib/shared/privacy";
import { exportOwnData } from "~/services/privacy/privacy.server";
import { requireShopper } from "~/web/auth.server";
import { runOrRefuse } from "~/web/form-action.server";
import { dataExportResponse } from "~/web/privacy-answers.server";
import { redirectWithFlash } from "~/web/session.server";

/**
 * "Download my data": the file of `GET /api/account/export` for a plain link, without JavaScript. A refusal
 * (the sixth download in an hour) goes back to the settings with its message.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShopper(request);
  return runOrRefuse(
    async () => dataExportResponse(await exportOwnData(user.id)),
    (error) => redirectWithFlash(request, PRIVACY_SETTINGS_URL, { type: "error", message: error.message }),
  );
}
