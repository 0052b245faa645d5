import { Form, useNavigation } from "react-router";
import { CODE_MAX_LENGTH, TWO_FACTOR_INTENTS } from "~/lib/shared/two-factor";

/**
 * The "Two-factor sign-in" section of the account pages (the shopper's Settings tab and the admin's
 * account page). Off: the current password starts enrolment. Started: the QR code (an SVG drawn on
 * the server), the secret as text for typing it in, and the code form. On: the backup codes once, in
 * the answer to the form that confirmed (or made new ones), and the forms that make new ones or turn
 * it off with a code. Plain forms posting an `intent`
 * (app/web/two-factor-actions.server.ts): the same without JavaScript. Plain HTML, no Mantine
 * (the storefront's JavaScript budget, docs/decisions/0008).
 */

interface TwoFactorSettingsProps {
  status: { enabled: boolean; enabledAt: string | null; pending: boolean; backupCodesLeft: number };
  enrolment: { secret: string; qrSvg: string } | null;
  /** The answer of the form that made backup codes: shown this once, never read back from anywhere. */
  newBackupCodes: { message: string; codes: string[] } | null;
  required: boolean;
  /** The last refused form of this section: which one, and why. */
  lastRefusal: { intent: string; error: string } | null;
}

/** The secret in groups of four, as authenticator apps print it. */
function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, "$1 ");
}

function CodeField({ id, error }: { id: string; error: string | undefined }) {
  return (
    <div className="two-factor__field">
      <label htmlFor={id}>Code</label>
      <input
        id={id}
        name="code"
        type="text"
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        required
        maxLength={CODE_MAX_LENGTH}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p className="form-error" role="alert" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function TwoFactorSettings(props: TwoFactorSettingsProps) {
  const navigation = useNavigation();
  const busy = (intent: string) =>
    (navigation.state === "submitting" && navigation.formData?.get("intent") === intent) || undefined;
  const errorFor = (intent: string) =>
    props.lastRefusal?.intent === intent ? props.lastRefusal.error : undefined;
  const { status, enrolment } = props;
  return (
    <section className="two-factor" id="two-factor" aria-labelledby="two-factor-title">
      <h3 id="two-factor-title">Two-factor sign-in</h3>
      {props.newBackupCodes ? (
        <div className="two-factor__codes" role="status" data-testid="backup-codes">
          <p>
            <strong>{props.newBackupCodes.message}.</strong>
          </p>
          <p>
            <strong>Your backup codes.</strong> Each works once, in place of your app&apos;s code. Write them
            down or print them now: they are not shown again.
          </p>
          <ul>
            {props.newBackupCodes.codes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {status.enabled ? (
        <>
          <p className="two-factor__text" data-testid="two-factor-state">
            Two-factor sign-in is <strong>on</strong>
            {status.enabledAt ? ` since ${status.enabledAt.slice(0, 10)}` : ""}. {status.backupCodesLeft} of
            10 backup codes left.
          </p>
          <Form method="post" preventScrollReset className="two-factor__form">
            <input type="hidden" name="intent" value={TWO_FACTOR_INTENTS.backupCodes} />
            <h4 className="two-factor__subtitle">New backup codes</h4>
            <p className="two-factor__text">
              Used some, or lost the list? Enter a code from your app for ten new ones; the old ones stop
              working.
            </p>
            <CodeField id="two-factor-backup-code" error={errorFor(TWO_FACTOR_INTENTS.backupCodes)} />
            <button
              type="submit"
              className="two-factor__button"
              aria-busy={busy(TWO_FACTOR_INTENTS.backupCodes)}
            >
              Make new backup codes
            </button>
          </Form>
          <Form method="post" preventScrollReset className="two-factor__form">
            <input type="hidden" name="intent" value={TWO_FACTOR_INTENTS.disable} />
            <h4 className="two-factor__subtitle">Turn off</h4>
            <p className="two-factor__text">
              {props.required
                ? "The shop requires it for the back office: after turning it off (to move to a new phone) you set it up again before anything else."
                : "Enter a code from your app or a backup code."}
            </p>
            <CodeField id="two-factor-disable-code" error={errorFor(TWO_FACTOR_INTENTS.disable)} />
            <button type="submit" className="two-factor__button" aria-busy={busy(TWO_FACTOR_INTENTS.disable)}>
              Turn off two-factor sign-in
            </button>
          </Form>
        </>
      ) : enrolment ? (
        <div className="two-factor__enrol">
          <ol className="two-factor__steps">
            <li>Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy …).</li>
            <li>
              Or type in this key:{" "}
              <code className="two-factor__secret" data-testid="two-factor-secret">
                {groupedSecret(enrolment.secret)}
              </code>
            </li>
            <li>Enter the 6-digit code the app shows.</li>
          </ol>
          {/* Drawn on the server by the qrcode library from the otpauth:// URL: no script, no markup of the person's. */}
          <div className="two-factor__qr" dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }} />
          <Form method="post" preventScrollReset className="two-factor__form">
            <input type="hidden" name="intent" value={TWO_FACTOR_INTENTS.confirm} />
            <CodeField id="two-factor-confirm-code" error={errorFor(TWO_FACTOR_INTENTS.confirm)} />
            <button
              type="submit"
              className="two-factor__button two-factor__button--primary"
              aria-busy={busy(TWO_FACTOR_INTENTS.confirm)}
            >
              Turn on two-factor sign-in
            </button>
          </Form>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value={TWO_FACTOR_INTENTS.cancel} />
            <button type="submit" className="two-factor__link" aria-busy={busy(TWO_FACTOR_INTENTS.cancel)}>
              Cancel
            </button>
          </Form>
        </div>
      ) : (
        <Form method="post" preventScrollReset className="two-factor__form">
          <input type="hidden" name="intent" value={TWO_FACTOR_INTENTS.start} />
          <p className="two-factor__text" data-testid="two-factor-state">
            Two-factor sign-in is <strong>off</strong>. With it on, signing in takes your password and a code
            from an app on your phone.
          </p>
          {props.required ? (
            <p className="form-error" role="alert">
              The shop requires two-factor sign-in for the back office: turn it on to continue.
            </p>
          ) : null}
          <div className="two-factor__field">
            <label htmlFor="two-factor-start-password">Current password (confirms it is you)</label>
            <input
              id="two-factor-start-password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              aria-invalid={errorFor(TWO_FACTOR_INTENTS.start) ? true : undefined}
              aria-describedby={errorFor(TWO_FACTOR_INTENTS.start) ? "two-factor-start-error" : undefined}
            />
            {errorFor(TWO_FACTOR_INTENTS.start) ? (
              <p className="form-error" role="alert" id="two-factor-start-error">
                {errorFor(TWO_FACTOR_INTENTS.start)}
              </p>
            ) : null}
          </div>
          <button
            type="submit"
            className="two-factor__button two-factor__button--primary"
            aria-busy={busy(TWO_FACTOR_INTENTS.start)}
          >
            Set up two-factor sign-in
          </button>
        </Form>
      )}
    </section>
  );
}
