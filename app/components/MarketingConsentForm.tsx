import { Form } from "react-router";
import {
  MARKETING_CONSENT_LABEL,
  MARKETING_INTENT,
  type MarketingConsentJson,
} from "~/lib/shared/marketing-consent";

/**
 * The account page's marketing consent: one box and a button, a plain form that works without JavaScript
 * (an unticked box sends nothing, which is "no").
 */
export function MarketingConsentForm({
  consent,
  error,
}: {
  consent: MarketingConsentJson;
  error: string | null;
}) {
  return (
    <section aria-labelledby="settings-marketing-title">
      <h3 id="settings-marketing-title">Mails about your cart and offers</h3>
      <Form method="post" preventScrollReset>
        <div className="sf-stack">
          <input type="hidden" name="intent" value={MARKETING_INTENT} />
          {error ? (
            <p className="field-error" role="alert">
              {error}
            </p>
          ) : null}
          <label className="account-settings__text">
            <input
              type="checkbox"
              name="consent"
              defaultChecked={consent.consent}
              data-testid="marketing-consent"
            />{" "}
            {MARKETING_CONSENT_LABEL}
          </label>
          {consent.changedAt ? (
            <p className="account-settings__text">
              Last changed {new Date(consent.changedAt).toUTCString()}.
            </p>
          ) : null}
          <button type="submit" className="sf-button account-settings__submit">
            Save mail preference
          </button>
        </div>
      </Form>
    </section>
  );
}
