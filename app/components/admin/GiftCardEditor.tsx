import { Stack, TextInput } from "@mantine/core";
import type { SentValues } from "~/lib/shared/admin-form";
import {
  GIFT_CARD_MAX_CENTS,
  GIFT_CARD_NAME_MAX,
  GIFT_CARD_REASON_MAX,
  type GiftCardJson,
} from "~/lib/shared/gift-cards";
import type { RecordFormFields } from "./AdminRecordForm";

/** What an edit of a card does: one change at a time, as the API takes them. */
export const GIFT_CARD_CHANGES = [
  { value: "adjust", label: "Adjust the balance (with a reason)" },
  { value: "expiry", label: "Set the expiry (empty: never)" },
  { value: "disable", label: "Disable the card" },
  { value: "enable", label: "Enable the card again" },
] as const;

/** A card as the form's values (a new one: empty). */
export function giftCardFormValues(card: GiftCardJson | null): SentValues {
  if (!card) return { amount: "", recipientEmail: "", recipientName: "", note: "" };
  return {
    change: "adjust",
    adjust: "",
    reason: "",
    expiresAt: card.expiresAt ? card.expiresAt.slice(0, 10) : "",
    version: String(card.version),
  };
}

/** A new card's fields: what the recipient gets, and why (the ledger's first entry). */
function IssueFields({ field }: RecordFormFields) {
  return (
    <>
      <TextInput
        {...field("amount")}
        label="Amount"
        description={`In dollars, at most ${GIFT_CARD_MAX_CENTS / 100}`}
        inputMode="decimal"
        required
      />
      <TextInput {...field("recipientEmail")} label="Recipient's email" type="email" required />
      <TextInput {...field("recipientName")} label="Recipient's name" maxLength={GIFT_CARD_NAME_MAX} />
      <TextInput
        {...field("note")}
        label="Why"
        description="Kept on the card's ledger"
        required
        maxLength={GIFT_CARD_REASON_MAX}
      />
    </>
  );
}

/** An existing card's one change: adjust with a reason, set the expiry, disable or enable. */
function ChangeFields({ field }: RecordFormFields) {
  const change = field("change");
  return (
    <>
      <fieldset className="discount-form__choices">
        <legend>Change</legend>
        <Stack gap="xs">
          {GIFT_CARD_CHANGES.map((option) => (
            <label key={option.value} htmlFor={`${change.id}-${option.value}`} className="gift-card-change">
              <input
                type="radio"
                id={`${change.id}-${option.value}`}
                name="change"
                value={option.value}
                defaultChecked={change.defaultValue === option.value}
              />{" "}
              {option.label}
            </label>
          ))}
        </Stack>
        {change.error ? <p className="field-error">{change.error}</p> : null}
      </fieldset>
      <TextInput
        {...field("adjust")}
        label="Adjustment"
        description="Added to the balance; negative takes off (-5 or 10.50)"
        inputMode="decimal"
      />
      <TextInput {...field("reason")} label="Reason" maxLength={GIFT_CARD_REASON_MAX} />
      <TextInput {...field("expiresAt")} label="Expires on" type="date" />
    </>
  );
}

/** The add form issues a card; the edit form changes one thing of it. */
export function GiftCardFields(form: RecordFormFields) {
  return form.field("change").defaultValue || form.field("version").defaultValue ? (
    <ChangeFields {...form} />
  ) : (
    <IssueFields {...form} />
  );
}
