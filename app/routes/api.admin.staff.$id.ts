import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { removeStaff, STAFF_TEXT, updateStaff } from "~/services/staff.server";

// PUT { permissions?, disabled? } → the member; DELETE → removed (the last admin stays: 409).
const route = apiRoute({
  PUT: async ({ request, context, params }) => {
    const actor = await requireApiArea(request, "staff");
    const body = await readJsonObject(request);
    const member = await updateStaff(actor, params.id ?? "", body, auditByOf(actor, context));
    return apiJson({ success: true, message: STAFF_TEXT.updated, data: member });
  },
  DELETE: async ({ request, context, params }) => {
    const actor = await requireApiArea(request, "staff");
    await removeStaff(actor, params.id ?? "", auditByOf(actor, context));
    return apiJson({ success: true, message: STAFF_TEXT.removed });
  },
});
export const loader = route.loader;
export const action = route.action;
