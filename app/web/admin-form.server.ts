import { data, type RouterContextProvider } from "react-router";
import { isAppError, type AppError } from "~/lib/server/errors.server";
import { readForm } from "~/lib/server/request-body.server";
import { RECORD_INTENTS, type AdminFormReply, type SentValues } from "~/lib/shared/admin-form";
import type { AuditBy } from "~/services/audit.server";
import type { SessionUser } from "~/services/users.server";
import { auditByOf } from "./audit.server";
import { redirectWithRefusal, runOrRefuse, type PageData } from "./form-action.server";
import { redirectWithFlash } from "./session.server";

/**
 * The admin's plain forms, and the list-and-form pages built on them (taxes,
 * delivery, discount codes, webhooks; docs/decisions/0038): a refusal renders
 * the page again (with its status) with the values the admin sent and each
 * field's message beside it, with or without JavaScript; a success redirects
 * back with a flash (POST/redirect/GET). The rules, the versions and the audit
 * entries are the services'; this only carries their answer back to the form.
 */

/** Every field of the form as sent: one string, or every value of a repeated field (checkboxes). */
export function sentValuesOf(formData: FormData, repeated: readonly string[] = []): SentValues {
  const values: SentValues = {};
  for (const key of new Set(formData.keys())) {
    if (key === "intent" || key === "id") continue;
    values[key] = repeated.includes(key) ? formData.getAll(key).map(String) : String(formData.get(key) ?? "");
  }
  for (const key of repeated) values[key] ??= [];
  return values;
}

export function refuseAdminForm(form: string, values: SentValues, error: AppError): PageData<AdminFormReply> {
  const errors = error.fieldErrors ?? {};
  return data<AdminFormReply>(
    {
      form,
      values,
      errors,
      message: Object.keys(errors).length ? null : error.message,
      // The kept form keeps the version it was based on: only a reload moves it on (decision 0015).
      ...(error.status === 409 ? { stale: true } : {}),
    },
    { status: error.status },
  );
}

/** A posted form's fields as a service reads them. */
export interface SentForm {
  /** These fields as text ("" for one not sent). */
  texts<Name extends string>(names: readonly Name[]): Record<Name, string>;
  /** Every value of a repeated field (the ticked boxes; none ticked: []). */
  list(name: string): string[];
  /** A checkbox: an unticked box sends nothing, which is "false". */
  box(name: string): "true" | "false";
}

function sentFormOf(formData: FormData): SentForm {
  return {
    texts<Name extends string>(names: readonly Name[]) {
      return Object.fromEntries(names.map((name) => [name, String(formData.get(name) ?? "")])) as Record<
        Name,
        string
      >;
    },
    list: (name) => formData.getAll(name).map(String),
    box: (name) => (formData.get(name) === "on" ? "true" : "false"),
  };
}

/** What a list-and-form page tells the helper: its URL, its words and its service's calls. */
export interface AdminRecords<Row extends { _id: string }, Created extends Row = Row, Reply = never> {
  /** The page's URL, where every answer goes back to. */
  page: string;
  /** The flash message of each change. */
  text: { created: string; updated: string; deleted: string };
  /** Fields sent once per ticked box; none ticked still comes back as an empty list. */
  repeated?: readonly string[];
  /** The form as the service reads it; the helper adds the `version` the form was based on. */
  inputOf: (sent: SentForm) => Record<string, unknown>;
  get: (id: string) => Promise<Row>;
  create: (input: Record<string, unknown>, by: AuditBy) => Promise<Created>;
  update: (id: string, input: Record<string, unknown>, by: AuditBy) => Promise<unknown>;
  /** Deletes; a service whose rows carry a version refuses a stale one (409). */
  remove: (id: string, by: AuditBy, version: string | undefined) => Promise<unknown>;
  /**
   * The answer to a create (default: back to the page with `text.created`): a redirect, or the page's
   * data when the page shows something once (a webhook's signing secret, never stored to be read again).
   */
  afterCreate?: (request: Request, created: Created) => Promise<Response | PageData<Reply>>;
  /** The page's other intents (a webhook's retry): each answers the request itself. */
  intents?: Record<string, (request: Request, formData: FormData) => Promise<Response>>;
}

/**
 * `read()` for a loader; when what it reads does not exist (a stale link), the
 * loader answers a redirect to `page` with the message instead (thrown, as the guards do).
 */
export async function readOrBack<T>(request: Request, page: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
    throw await redirectWithRefusal(request, page, error);
  }
}

/**
 * The dialogs the URL opens, for the page's loader: `?edit=ID` (the row as
 * stored, its version included) and `?panel=new`. The caller checks the area first.
 */
export async function openedRecords<Row extends { _id: string }>(
  request: Request,
  records: Pick<AdminRecords<Row>, "page" | "get">,
): Promise<{ editing: Row | null; adding: boolean }> {
  const params = new URL(request.url).searchParams;
  const editId = params.get("edit");
  const editing = editId ? await readOrBack(request, records.page, () => records.get(editId)) : null;
  return { editing, adding: params.get("panel") === "new" };
}

/**
 * The page's action, after the caller checked the area (`user` is who the
 * audit entries name): `intent` create, update or delete (each with the
 * `version` the form was based on, when its rows have one) or one of the
 * page's own. A refused form comes back with what was sent; a row gone, or
 * changed since its Delete button was shown, answers a flash on the page.
 */
export async function recordAction<Row extends { _id: string }, Created extends Row, Reply = never>(
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> | undefined },
  user: SessionUser,
  records: AdminRecords<Row, Created, Reply>,
): Promise<Response | PageData<AdminFormReply> | PageData<Reply>> {
  const by = auditByOf(user, context);
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  const id = String(formData.get("id") ?? "");
  const version = formData.get("version") ? String(formData.get("version")) : undefined;
  const back = (message: string) => redirectWithFlash(request, records.page, { type: "success", message });
  const own = records.intents && Object.hasOwn(records.intents, intent) ? records.intents[intent] : undefined;
  if (own) return own(request, formData);
  if (intent === RECORD_INTENTS.delete) {
    return runOrRefuse(
      async () => {
        await records.remove(id, by, version);
        return back(records.text.deleted);
      },
      (error) => redirectWithRefusal(request, records.page, error),
    );
  }
  if (intent !== RECORD_INTENTS.create && intent !== RECORD_INTENTS.update) {
    return redirectWithFlash(request, records.page, { type: "error", message: "Unknown action" });
  }
  const values = sentValuesOf(formData, records.repeated);
  return runOrRefuse(
    async () => {
      const input = { ...records.inputOf(sentFormOf(formData)), ...(version ? { version } : {}) };
      if (intent === RECORD_INTENTS.update) {
        await records.update(id, input, by);
        return back(records.text.updated);
      }
      const created = await records.create(input, by);
      return records.afterCreate ? records.afterCreate(request, created) : back(records.text.created);
    },
    (error) => {
      if (error.status === 404) return redirectWithRefusal(request, records.page, error);
      return refuseAdminForm(intent === RECORD_INTENTS.create ? "new" : id, values, error);
    },
  );
}

/**
 * A filtered list's address without the filter form's empty fields: a GET form
 * sends every field, so "All types" arrives as `type=`. The list redirects to
 * this shorter address, and its actions return to it.
 */
export function listAddressOf(url: URL): string {
  const kept = new URLSearchParams([...url.searchParams].filter(([, value]) => value !== ""));
  return kept.size ? `${url.pathname}?${kept}` : url.pathname;
}
