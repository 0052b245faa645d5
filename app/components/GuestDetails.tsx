import { MARKETING_CONSENT_FIELD, MARKETING_CONSENT_LABEL } from "~/lib/shared/marketing-consent";
import {
  ADDRESS_FIELDS,
  ADDRESS_LABELS,
  ADDRESS_MAX_LENGTH,
  type AddressField,
} from "~/lib/shared/address-rules";

/**
 * A visitor's details at checkout (guest checkout, docs/decisions/0044): the email the confirmation and
 * the order's private link go to, the delivery address typed in, and the unticked marketing box. Plain
 * inputs of the checkout's form (`form`), so the page works without JavaScript; after a refusal the server
 * gives back what was typed and the field errors, rendered here.
 */

export interface GuestDetailsValues {
  email?: string;
  marketingConsent?: boolean;
  address?: Partial<Record<AddressField, string>>;
}

interface GuestDetailsProps {
  form: string;
  values: GuestDetailsValues;
  errors: Record<string, string[]>;
  /** Whether the order is delivered (false: gift cards alone, which need no address). */
  withAddress?: boolean;
}

const AUTOCOMPLETE: Record<AddressField, string> = {
  address: "street-address",
  city: "address-level2",
  pincode: "postal-code",
  phone: "tel",
  notes: "off",
};

function Field(props: {
  form: string;
  name: string;
  label: string;
  type?: string;
  autoComplete: string;
  maxLength: number;
  defaultValue?: string;
  error?: string;
}) {
  const id = `guest-${props.name}`;
  return (
    <div className="sf-field">
      <label htmlFor={id} className="sf-field__label">
        {props.label}
        <span className="sf-field__required" aria-hidden="true">
          {" "}
          *
        </span>
      </label>
      <input
        id={id}
        name={props.name}
        form={props.form}
        type={props.type ?? "text"}
        required
        className="sf-input"
        autoComplete={props.autoComplete}
        maxLength={props.maxLength}
        defaultValue={props.defaultValue}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
      />
      {props.error ? (
        <p className="form-error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

export function GuestDetails({ form, values, errors, withAddress = true }: GuestDetailsProps) {
  return (
    <div className="guest-details" data-testid="guest-details">
      <Field
        form={form}
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        maxLength={254}
        defaultValue={values.email}
        error={errors.email?.[0]}
      />
      <p className="checkout__hint">We email your confirmation and a private link to your order here.</p>
      {/* Gift cards alone go by mail: no address is asked (docs/decisions/0051). */}
      {(withAddress ? ADDRESS_FIELDS : []).map((field) => (
        <Field
          key={field}
          form={form}
          name={field}
          label={ADDRESS_LABELS[field]}
          type={field === "phone" ? "tel" : "text"}
          autoComplete={AUTOCOMPLETE[field]}
          maxLength={ADDRESS_MAX_LENGTH[field]}
          defaultValue={values.address?.[field]}
          error={errors[field]?.[0] ?? errors[`addressInfo.${field}`]?.[0]}
        />
      ))}
      <MarketingConsentBox form={form} defaultChecked={values.marketingConsent} />
    </div>
  );
}

/** The unticked consent box of the checkout, for a guest and a shopper alike. */
export function MarketingConsentBox({ form, defaultChecked }: { form?: string; defaultChecked?: boolean }) {
  return (
    <label className="guest-details__consent">
      <input
        type="checkbox"
        name={MARKETING_CONSENT_FIELD}
        value="on"
        form={form}
        defaultChecked={defaultChecked}
      />{" "}
      {MARKETING_CONSENT_LABEL}
    </label>
  );
}
