import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { inviteStaff, listStaff, STAFF_TEXT } from "~/services/staff.server";

// GET → the back office's people; POST → 201 an invited staff member (the mail goes through the outbox).
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiArea(request, "staff");
    return apiJson({ success: true, data: await listStaff() });
  },
  POST: async ({ request, context }) => {
    const actor = await requireApiArea(request, "staff");
    const member = await inviteStaff(actor, await readJsonObject(request), auditByOf(actor, context));
    return apiJson({ success: true, message: STAFF_TEXT.invited, data: member }, { status: 201 });
  },
});
export const loader = route.loader;
export const action = route.action;
