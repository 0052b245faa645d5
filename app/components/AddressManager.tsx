import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import {
  Anchor,
  Box,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from "@mantine/core";
import { Form, Link, useActionData, useLocation, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import {
  ADDRESS_FIELDS,
  ADDRESS_INTENTS,
  ADDRESS_MAX_LENGTH,
  addressInputSchema,
  EDIT_ADDRESS_PARAM,
  MAX_ADDRESSES,
  MAX_ADDRESSES_MESSAGE,
} from "~/lib/address-schema";
import { useHydrated } from "~/lib/use-hydrated";
import { ConfirmDisclosure } from "./ConfirmDisclosure";

/**
 * The address manager (SPEC §2, §5): the shopper's address cards with Edit
 * and Delete, and the form "Add New Address" / "Edit Address". Every control
 * is a plain form or link: editing is the URL state ?editAddress=ID, and the
 * page's action hands the posts to handleAddressAction
 * (app/web/address-actions.server.ts). With `selectable`, the cards are radio
 * inputs named `addressId` that belong to another form on the page (checkout).
 */

export interface AddressCardData {
  _id: string;
  address: string;
  city: string;
  pincode: string;
  phone: string;
  notes: string;
}

export interface AddressManagerProps {
  addresses: AddressCardData[];
  editing: AddressCardData | null;
  /** conform's reply from the page's action (AddressActionData.addressForm). */
  lastResult?: SubmissionResult<string[]> | null;
  /** Cards as a choice: radio inputs named addressId, owned by the form with id `formId`. */
  selectable?: { formId: string; selectedId?: string | null };
}

type FormValues = Record<(typeof ADDRESS_FIELDS)[number], string>;
const EMPTY: FormValues = { address: "", city: "", pincode: "", phone: "", notes: "" };

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
    <Text component="span" size="sm" display="block">
      <strong>{label}:</strong> {value}
    </Text>
  );
  return (
    <Box
      component="span"
      style={{ display: "flex", flexDirection: "column", gap: 4, overflowWrap: "anywhere", minWidth: 0 }}
    >
      {line("Address", address.address)}
      {line("City", address.city)}
      {line("pincode", address.pincode)}
      {line("Phone", address.phone)}
      {line("Notes", address.notes)}
    </Box>
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
    <Card
      component="li"
      withBorder
      padding="md"
      radius="md"
      data-testid="address-card"
      className={selectable ? "address-choice" : undefined}
      style={isEditing ? { borderColor: "var(--mantine-color-dark-6)", borderWidth: 2 } : undefined}
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
      <Group
        justify="space-between"
        gap="xs"
        style={{ marginTop: "auto", paddingTop: "var(--mantine-spacing-md)" }}
      >
        <Button
          component={Link}
          to={editHref}
          size="xs"
          preventScrollReset
          aria-label={`Edit address: ${address.address}`}
        >
          Edit
        </Button>
        <ConfirmDisclosure
          label={`Delete address: ${address.address}`}
          toggle="Delete"
          question="Delete this address?"
        >
          <Form method="post" action={action} preventScrollReset>
            <input type="hidden" name="intent" value={ADDRESS_INTENTS.delete} />
            <input type="hidden" name="addressId" value={address._id} />
            <Button type="submit" size="xs" color="red.9" loading={deleting}>
              Yes, delete
            </Button>
          </Form>
        </ConfirmDisclosure>
      </Group>
    </Card>
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

function AddressForm({
  editing,
  lastResult,
  action,
  cancelHref,
}: {
  editing: AddressCardData | null;
  lastResult?: SubmissionResult<string[]> | null;
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
      }
    : EMPTY;
  const [form, fields] = useForm({
    id: `address-form-${editing?._id ?? "new"}`,
    lastResult,
    defaultValue,
    constraint: getZodConstraint(addressInputSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addressInputSchema }),
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
  ) => {
    const field = fields[name];
    const { key, ...props } = getInputProps(field, { type: name === "phone" ? "tel" : "text" });
    return (
      <TextInput
        key={key}
        {...props}
        {...extra}
        maxLength={ADDRESS_MAX_LENGTH[name]}
        label={label}
        placeholder={placeholder}
        error={field.errors?.[0]}
        errorProps={{ id: field.errorId }}
      />
    );
  };
  const { key: notesKey, ...notesProps } = getTextareaProps(fields.notes);

  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby={titleId}>
      <Title order={2} size="h4" id={titleId} mb="md">
        {title}
      </Title>
      <Form
        method="post"
        action={action}
        preventScrollReset
        ref={formRef}
        onInput={recompute}
        onChange={recompute}
        {...getFormProps(form)}
      >
        <Stack gap="sm">
          {form.errors?.length ? (
            <Text c="red.7" size="sm" role="alert" id={form.errorId}>
              {form.errors[0]}
            </Text>
          ) : null}
          <input type="hidden" name="intent" value={intent} />
          {editing ? <input type="hidden" name="addressId" value={editing._id} /> : null}
          {textField("address", "Address", "Enter your address", { autoComplete: "street-address" })}
          {textField("city", "City", "Enter your city", { autoComplete: "address-level2" })}
          {textField("pincode", "Pincode", "Enter your pincode", { autoComplete: "postal-code" })}
          {textField("phone", "Phone", "Enter your phone number", { inputMode: "tel", autoComplete: "tel" })}
          <Textarea
            key={notesKey}
            {...notesProps}
            maxLength={ADDRESS_MAX_LENGTH.notes}
            label="Notes"
            placeholder="Enter any additional notes"
            autosize
            minRows={2}
            error={fields.notes.errors?.[0]}
            errorProps={{ id: fields.notes.errorId }}
          />
          <Button type="submit" fullWidth disabled={hydrated && !complete} loading={submitting}>
            {editing ? "Edit" : "Add"}
          </Button>
          {editing ? (
            <Anchor component={Link} to={cancelHref} size="sm" ta="center" preventScrollReset>
              Cancel editing
            </Anchor>
          ) : null}
        </Stack>
      </Form>
    </Card>
  );
}

/** With three addresses, the reason instead of a form that the server would refuse (issue 9 §5). */
function AddressLimitReached() {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="address-limit-title">
      <Title order={2} size="h4" id="address-limit-title" mb="xs">
        Add New Address
      </Title>
      <p className="address-limit" data-testid="address-limit">
        {MAX_ADDRESSES_MESSAGE}. Edit or delete one of your saved addresses to add another.
      </p>
    </Card>
  );
}

export function AddressManager({ addresses, editing, lastResult, selectable }: AddressManagerProps) {
  const location = useLocation();
  const completedSaves = useCompletedSaves();
  const action = hrefWith(location.pathname, location.search, editing?._id ?? null);
  const cancelHref = hrefWith(location.pathname, location.search, null);
  return (
    <Stack gap="lg" data-testid="address-manager">
      {addresses.length ? (
        <SimpleGrid
          component="ul"
          cols={{ base: 1, sm: 2, lg: 3 }}
          spacing="md"
          style={{ listStyle: "none", padding: 0, margin: 0 }}
          aria-label="Saved addresses"
        >
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
        </SimpleGrid>
      ) : (
        <Text c="dimmed" size="sm">
          No saved addresses yet. Add one below (up to {MAX_ADDRESSES}).
        </Text>
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
    </Stack>
  );
}
