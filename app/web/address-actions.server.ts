import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { SessionUser } from "~/services/users.server";
import {
  ADDRESS_ADDED,
  ADDRESS_DELETED,
  ADDRESS_UPDATED,
  addAddress,
  deleteAddress,
  getAddress,
  listAddresses,
  updateAddress,
  type AddressJson,
} from "~/services/addresses.server";
import { ADDRESS_INTENTS, addressInputSchema, EDIT_ADDRESS_PARAM } from "~/lib/shared/address-schema";
import type { AppError } from "~/lib/server/errors.server";
import { redirectWithRefusal, replyToRefusal, runOrRefuse, type PageData } from "./form-action.server";
import { redirectWithFlash } from "./session.server";

/**
 * The address manager's server half, for any page that shows it (addresses,
 * checkout, account). The page's loader calls `loadAddressManager`; its
 * action hands address intents to `handleAddressAction`. The rules live in
 * app/services/addresses.server.ts, like the JSON API's.
 */

/** What a failed address submission returns: conform's reply, rendered with the form. */
interface AddressActionData {
  addressForm: SubmissionResult<string[]>;
}

interface AddressManagerData {
  addresses: AddressJson[];
  /** The address of `?editAddress=ID`, or null (an unknown id shows the add form). */
  editing: AddressJson | null;
}

export async function loadAddressManager(request: Request, user: SessionUser): Promise<AddressManagerData> {
  const editId = new URL(request.url).searchParams.get(EDIT_ADDRESS_PARAM);
  const [addresses, editing] = await Promise.all([
    listAddresses(user.id),
    editId ? getAddress(user.id, editId).catch(() => null) : Promise.resolve(null),
  ]);
  return { addresses, editing };
}

export function isAddressIntent(formData: FormData): boolean {
  const intent = formData.get("intent");
  return Object.values(ADDRESS_INTENTS).some((value) => value === intent);
}

/** `url` without the edit state, for the redirect after a save. */
function withoutEditAddress(url: string): string {
  const parsed = new URL(url, "http://local.invalid");
  parsed.searchParams.delete(EDIT_ADDRESS_PARAM);
  return `${parsed.pathname}${parsed.search}`;
}

/**
 * Adds, updates or deletes an address of `user` from a form post with an
 * `intent` (ADDRESS_INTENTS). Success and refusals (the fourth address, an
 * unknown id) redirect to `redirectTo` with a flash message, so the form
 * starts afresh; invalid fields answer 400 with conform's reply, so the form
 * shows its errors and keeps what was typed, with or without JavaScript.
 */
export async function handleAddressAction(
  request: Request,
  user: SessionUser,
  formData: FormData,
  redirectTo: string,
): Promise<Response | PageData<AddressActionData>> {
  const intent = formData.get("intent");
  const addressId = formData.get("addressId");
  const target = withoutEditAddress(redirectTo);
  const refuse = (error: AppError) => {
    // Invalid fields come back to the form; any other refusal starts the form afresh with a message.
    if (error.status === 400 && error.fieldErrors) {
      const submission = parseWithZod(formData, { schema: addressInputSchema });
      const { result, init } = replyToRefusal(submission, error);
      return data<AddressActionData>({ addressForm: result }, { status: init.status });
    }
    return redirectWithRefusal(request, target, error);
  };
  return runOrRefuse(async () => {
    if (intent === ADDRESS_INTENTS.delete) {
      await deleteAddress(user.id, addressId);
      return await redirectWithFlash(request, target, { type: "success", message: ADDRESS_DELETED });
    }
    if (intent !== ADDRESS_INTENTS.add && intent !== ADDRESS_INTENTS.update) {
      return await redirectWithFlash(request, target, { type: "error", message: "Unknown action" });
    }
    const submission = parseWithZod(formData, { schema: addressInputSchema });
    if (submission.status !== "success") {
      return data<AddressActionData>({ addressForm: submission.reply() }, { status: 400 });
    }
    // The five fields as the schema read them, and the optional destination, which the service checks.
    const values = { ...submission.value, country: formData.get("country"), region: formData.get("region") };
    if (intent === ADDRESS_INTENTS.add) {
      await addAddress(user.id, values);
      return await redirectWithFlash(request, target, { type: "success", message: ADDRESS_ADDED });
    }
    await updateAddress(user.id, addressId, values);
    return await redirectWithFlash(request, target, { type: "success", message: ADDRESS_UPDATED });
  }, refuse);
}
