import { DATA_EXPORT_PATH, DELETE_ACCOUNT_PATH } from "~/lib/shared/privacy";

/**
 * "Your data" on the account page: a plain link that downloads the file and a plain form that deletes the
 * account. Both are answered by the server alone (a resource route's attachment, a POST that redirects), with
 * or without JavaScript (docs/decisions/0053).
 */
export function PrivacySettings({ twoFactorOn }: { twoFactorOn: boolean }) {
  return (
    <section aria-labelledby="settings-privacy-title" className="privacy-settings">
      <h3 id="settings-privacy-title">Your data</h3>
      <p className="account-settings__text">
        One JSON file with everything we hold about you: account, addresses, orders, reviews, alerts,
        wishlist, consents and store credit.
      </p>
      <p>
        <a className="sf-button" href={DATA_EXPORT_PATH} download data-testid="download-my-data">
          Download my data
        </a>
      </p>
      <form method="post" action={DELETE_ACCOUNT_PATH} className="sf-stack" data-testid="delete-account">
        <h4>Delete my account</h4>
        <p className="account-settings__text">
          Your name, email, addresses, cart, wishlist, alerts and consents are erased for good. Orders stay
          for our accounts and tax records without your name, street or phone; reviews stay, signed “Former
          customer”. Not possible while an order or a return is in progress.
        </p>
        <label className="sf-field">
          <span>Password</span>
          <input type="password" name="password" autoComplete="current-password" required maxLength={200} />
        </label>
        {twoFactorOn ? (
          <label className="sf-field">
            <span>Two-factor code or backup code</span>
            <input
              type="text"
              name="code"
              autoComplete="one-time-code"
              inputMode="numeric"
              required
              maxLength={40}
            />
          </label>
        ) : null}
        <button type="submit" className="sf-button sf-button--danger account-settings__submit">
          Delete my account
        </button>
      </form>
    </section>
  );
}
