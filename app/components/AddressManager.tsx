import { Form, Link, type LinkDescriptor, useActionData, useLocation, useNavigation } from "react-router";
import { useCallback, useEffect, useRef, useState } from "react";
import {
  ADDRESS_FIELDS,
  ADDRESS_INTENTS,
  ADDRESS_MAX_LENGTH,
  addressFieldErrors,
  EDIT_ADDRESS_PARAM,
  MAX_ADDRESSES,
  MAX_ADDRESSES_MESSAGE,
} from "~/lib/shared/address-rules";
import { useHydrated } from "~/lib/shared/use-hydrated";
import addressStyles from "~/styles/addresses.css?url";
import { ConfirmDisclosure } from "./ConfirmDisclosure";
import { useCheckedForm, type FormReply } from "./plain-form";
import { PlainField } from "./PlainField";

/** The address manager's stylesheet: every route that shows it adds these to its `links`. */
export const addressManagerLinks: LinkDescriptor[] = [{ rel: "stylesheet", href: addressStyles }];

/**
 * The address manager (SPEC §2, §5): the shopper's address cards with Edit
 * and Delete, and the form "Add New Address" / "Edit Address". Every control
 * is a plain form or link: editing is the URL state ?editAddress=ID, and the
 * page's action hands the posts to handleAddressAction
 * (app/web/address-actions.server.ts). With `selectable`, the cards are radio
 * inputs named `addressId` that belong to another form on the page (checkout).
 * Plain HTML with the storefront's classes: no Mantine and no zod reach the
 * checkout's JavaScript (docs/decisions/0008); the browser's courtesy check uses the
 * rules of app/lib/shared/address-rules.ts, the server's schema the same.
 */

interface AddressCardData {
  _id: string;
  address: string;
  city: string;
  pincode: string;
  phone: string;
  notes: string;
  /** The destination taxes are computed for (the shop's country and a US ZIP's state when not given). */
  country?: string;
  region?: string | null;
}

interface AddressManagerProps {
  addresses: AddressCardData[];
  editing: AddressCardData | null;
  /** conform's reply from the page's action (AddressActionData.addressForm). */
  lastResult?: FormReply | null;
  /** Cards as a choice: radio inputs named addressId, owned by the form with id `formId`. */
  selectable?: { formId: string; selectedId?: string | null };
}

/** The five required fields, and the optional destination (country, region) that the server derives when blank. */
type FormValues = Record<(typeof ADDRESS_FIELDS)[number] | "country" | "region", string>;
const EMPTY: FormValues = {
  address: "",
  city: "",
  pincode: "",
  phone: "",
  notes: "",
  country: "",
  region: "",
};

function hrefWith(pathname: string, search: string, editId: string | null): string {
  const params = new URLSearchParams(search);
  params.delete("index");
  if (editId) params.set(EDIT_ADDRESS_PARAM, editId);
  else params.delete(EDIT_ADDRESS_PARAM);
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** Spans (phrasing content), so that the details may sit inside the choice's <label>. */
function AddressDetails({ address }: { address: AddressCardData }) {
  const line = (label: string, value: string) => (
    <span className="address-details__line">
      <strong>{label}:</strong> {value}
    </span>
  );
  return (
    <span className="address-details">
      {line("Address", address.address)}
      {line("City", address.city)}
      {line("pincode", address.pincode)}
      {line("Phone", address.phone)}
      {line("Notes", address.notes)}
      {address.country
        ? line("Country", address.region ? `${address.country} · ${address.region}` : address.country)
        : null}
    </span>
  );
}

function AddressCard({
  address,
  editHref,
  action,
  selectable,
  isEditing,
}: {
  address: AddressCardData;
  editHref: string;
  action: string;
  selectable?: AddressManagerProps["selectable"];
  isEditing: boolean;
}) {
  const navigation = useNavigation();
  const deleting =
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === ADDRESS_INTENTS.delete &&
    navigation.formData.get("addressId") === address._id;
  const inputId = `address-choice-${address._id}`;
  return (
    <li
      data-testid="address-card"
      className={`address-card${selectable ? " address-choice" : ""}${isEditing ? " address-card--editing" : ""}`}
    >
      {selectable ? (
        <label htmlFor={inputId} style={{ display: "flex", gap: "0.75rem", cursor: "pointer" }}>
          <input
            id={inputId}
            type="radio"
            name="addressId"
            value={address._id}
            form={selectable.formId}
            defaultChecked={selectable.selectedId === address._id}
            aria-label={`Deliver to ${address.address}, ${address.city}`}
          />
          <AddressDetails address={address} />
        </label>
      ) : (
        <AddressDetails address={address} />
      )}
      {/* Cards of one row share a height: the buttons line up at the bottom. */}
      <div className="address-card__actions">
        <Link
          to={editHref}
          preventScrollReset
          className="sf-button sf-button--primary sf-button--small"
          aria-label={`Edit address: ${address.address}`}
        >
          Edit
        </Link>
        <ConfirmDisclosure
          label={`Delete address: ${address.address}`}
          toggle="Delete"
          question="Delete this address?"
        >
          <Form method="post" action={action} preventScrollReset>
            <input type="hidden" name="intent" value={ADDRESS_INTENTS.delete} />
            <input type="hidden" name="addressId" value={address._id} />
            <button
              type="submit"
              className="sf-button sf-button--danger sf-button--small"
              aria-busy={deleting || undefined}
            >
              Yes, delete
            </button>
          </Form>
        </ConfirmDisclosure>
      </div>
    </li>
  );
}

/**
 * Counts the address saves that ended in a redirect (success, or the fourth
 * address refused): each one starts the form afresh. A save that failed
 * validation returns action data instead and keeps what was typed.
 */
function useCompletedSaves(): number {
  const navigation = useNavigation();
  const actionData = useActionData<{ addressForm?: unknown } | undefined>();
  const [completed, setCompleted] = useState(0);
  const saving = useRef(false);
  const intent = navigation.formData?.get("intent");
  const isSave =
    navigation.state !== "idle" && (intent === ADDRESS_INTENTS.add || intent === ADDRESS_INTENTS.update);
  useEffect(() => {
    if (isSave) {
      saving.current = true;
    } else if (navigation.state === "idle" && saving.current) {
      saving.current = false;
      if (!actionData?.addressForm) setCompleted((count) => count + 1);
    }
  }, [isSave, navigation.state, actionData]);
  return completed;
}

/** The form's fields: the five required ones first, then the optional destination. */
const FORM_FIELDS = [...ADDRESS_FIELDS, "country", "region"] as const;

function AddressForm({
  editing,
  lastResult,
  action,
  cancelHref,
}: {
  editing: AddressCardData | null;
  lastResult?: FormReply | null;
  action: string;
  cancelHref: string;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const defaultValue: FormValues = editing
    ? {
        address: editing.address,
        city: editing.city,
        pincode: editing.pincode,
        phone: editing.phone,
        notes: editing.notes,
        country: editing.country ?? "",
        region: editing.region ?? "",
      }
    : EMPTY;
  // The courtesy check as the shopper types is the rules' own (the server checks again with the schema).
  const [form, fields, checks] = useCheckedForm(`address-form-${editing?._id ?? "new"}`, {
    names: FORM_FIELDS,
    reply: lastResult,
    defaultValue,
    required: ADDRESS_FIELDS,
    validate: addressFieldErrors,
  });
  const [complete, setComplete] = useState(() =>
    ADDRESS_FIELDS.every((name) => defaultValue[name].trim() !== ""),
  );
  const recompute = useCallback(() => {
    if (!formRef.current) return;
    const data = new FormData(formRef.current);
    setComplete(ADDRESS_FIELDS.every((name) => String(data.get(name) ?? "").trim() !== ""));
  }, []);
  useEffect(recompute, [recompute, lastResult]);

  const intent = editing ? ADDRESS_INTENTS.update : ADDRESS_INTENTS.add;
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const title = editing ? "Edit Address" : "Add New Address";
  const titleId = `${form.id}-title`;

  const textField = (
    name: "address" | "city" | "pincode" | "phone",
    label: string,
    placeholder: string,
    extra: { inputMode?: "numeric" | "tel"; autoComplete?: string } = {},
  ) => (
    <PlainField
      field={fields[name]}
      type={name === "phone" ? "tel" : "text"}
      maxLength={ADDRESS_MAX_LENGTH[name]}
      label={label}
      placeholder={placeholder}
      {...extra}
    />
  );

  return (
    <section className="address-form-card" aria-labelledby={titleId}>
      <h2 className="address-form-card__title" id={titleId}>
        {title}
      </h2>
      <Form
        method="post"
        action={action}
        preventScrollReset
        ref={formRef}
        id={form.id}
        // The server's messages beside the fields (and, with JavaScript, the courtesy check's) instead of the
        // browser's bubbles, which would stop the form before the server explains.
        noValidate
        aria-describedby={form.errors?.length ? form.errorId : undefined}
        onBlur={checks.onBlur}
        onInput={(event) => {
          checks.onInput(event);
          recompute();
        }}
        onChange={recompute}
        onSubmit={checks.onSubmit}
      >
        <div className="sf-stack">
          {form.errors?.length ? (
            <p className="form-error" role="alert" id={form.errorId}>
              {form.errors[0]}
            </p>
          ) : null}
          <input type="hidden" name="intent" value={intent} />
          {editing ? <input type="hidden" name="addressId" value={editing._id} /> : null}
          {textField("address", "Address", "Enter your address", { autoComplete: "street-address" })}
          {textField("city", "City", "Enter your city", { autoComplete: "address-level2" })}
          {textField("pincode", "Pincode", "Enter your pincode", { autoComplete: "postal-code" })}
          <div className="address-form__destination">
            <PlainField
              field={fields.country}
              maxLength={2}
              label="Country (optional)"
              placeholder="Such as US"
              autoComplete="country"
            />
            <PlainField
              field={fields.region}
              maxLength={3}
              label="Region (optional)"
              placeholder="State, such as NY"
              autoComplete="address-level1"
            />
          </div>
          {textField("phone", "Phone", "Enter your phone number", { inputMode: "tel", autoComplete: "tel" })}
          <PlainField
            field={fields.notes}
            rows={2}
            maxLength={ADDRESS_MAX_LENGTH.notes}
            label="Notes"
            placeholder="Enter any additional notes"
          />
          <button
            type="submit"
            className="sf-button sf-button--primary sf-button--block"
            disabled={hydrated && !complete}
            aria-busy={submitting || undefined}
          >
            {editing ? "Edit" : "Add"}
          </button>
          {editing ? (
            <Link to={cancelHref} preventScrollReset className="sf-link address-form-card__cancel">
              Cancel editing
            </Link>
          ) : null}
        </div>
      </Form>
    </section>
  );
}

/** With three addresses, the reason instead of a form that the server would refuse. */
function AddressLimitReached() {
  return (
    <section className="address-form-card" aria-labelledby="address-limit-title">
      <h2 className="address-form-card__title" id="address-limit-title">
        Add New Address
      </h2>
      <p className="address-limit" data-testid="address-limit">
        {MAX_ADDRESSES_MESSAGE}. Edit or delete one of your saved addresses to add another.
      </p>
    </section>
  );
}

export function AddressManager({ addresses, editing, lastResult, selectable }: AddressManagerProps) {
  const location = useLocation();
  const completedSaves = useCompletedSaves();
  const action = hrefWith(location.pathname, location.search, editing?._id ?? null);
  const cancelHref = hrefWith(location.pathname, location.search, null);
  return (
    <div className="sf-stack sf-stack--lg" data-testid="address-manager">
      {addresses.length ? (
        <ul className="address-grid" aria-label="Saved addresses">
          {addresses.map((address) => (
            <AddressCard
              key={address._id}
              address={address}
              editHref={hrefWith(location.pathname, location.search, address._id)}
              action={cancelHref}
              selectable={selectable}
              isEditing={editing?._id === address._id}
            />
          ))}
        </ul>
      ) : (
        <p className="address-empty">No saved addresses yet. Add one below (up to {MAX_ADDRESSES}).</p>
      )}
      {!editing && addresses.length >= MAX_ADDRESSES ? (
        <AddressLimitReached />
      ) : (
        <AddressForm
          key={`${editing?._id ?? "new"}:${completedSaves}`}
          editing={editing}
          lastResult={lastResult}
          action={action}
          cancelHref={cancelHref}
        />
      )}
    </div>
  );
}
