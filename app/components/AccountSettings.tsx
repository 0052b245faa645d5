import { Form, useNavigation } from "react-router";
import { ACCOUNT_INTENTS } from "~/lib/shared/account-intents";
import { plainForm, type FormReply, type PlainFormState } from "./plain-form";
import { PlainField } from "./PlainField";

/**
 * Account settings: user name, password, other sessions. Three
 * plain forms that post an `intent` to the page's action
 * (app/web/account-actions.server.ts), so they work without JavaScript;
 * the server validates (app/lib/shared/account-schemas.ts) and its messages show
 * beside the fields, with or without JavaScript. Plain HTML with the
 * plain forms' classes (app/styles/plain-forms.css, which the shop's and the
 * admin's account pages both load): no Mantine and no zod in the page's
 * JavaScript (the storefront's JavaScript budget, docs/decisions/0008).
 */

interface AccountSettingsProps {
  userName: string;
  email: string;
  otherSessions: number;
  /** The page's last failed submission: which form sent it, and conform's reply. */
  lastSubmission: { intent: string; result: FormReply } | null;
}

function resultFor(props: AccountSettingsProps, intent: string) {
  return props.lastSubmission?.intent === intent ? props.lastSubmission.result : undefined;
}

function FormError({ errors, id }: { errors: string[] | undefined; id: string }) {
  return errors?.length ? (
    <p className="form-error" role="alert" id={id}>
      {errors[0]}
    </p>
  ) : null;
}

/** The form's message, when it shows one, describes the form. */
function formErrorOf(form: PlainFormState): string | undefined {
  return form.errors?.length ? form.errorId : undefined;
}

export function AccountSettings(props: AccountSettingsProps) {
  const navigation = useNavigation();
  const busy = (intent: string) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const [nameForm, nameFields] = plainForm("account-user-name", {
    names: ["userName"],
    reply: resultFor(props, ACCOUNT_INTENTS.userName),
    defaultValue: { userName: props.userName },
    required: ["userName"],
  });
  const [passwordForm, passwordFields] = plainForm("account-password", {
    names: ["currentPassword", "newPassword"],
    reply: resultFor(props, ACCOUNT_INTENTS.password),
    required: ["currentPassword", "newPassword"],
  });
  return (
    <div className="sf-stack sf-stack--xl account-settings">
      <p className="account-settings__text">
        Signed in as <strong>{props.email}</strong>
      </p>
      <section aria-labelledby="settings-user-name-title">
        <h3 id="settings-user-name-title">User name</h3>
        <Form
          method="post"
          preventScrollReset
          noValidate
          id={nameForm.id}
          aria-describedby={formErrorOf(nameForm)}
        >
          <div className="sf-stack">
            <input type="hidden" name="intent" value={ACCOUNT_INTENTS.userName} />
            <FormError errors={nameForm.errors} id={nameForm.errorId} />
            <PlainField field={nameFields.userName} label="User Name" autoComplete="username" />
            <button
              type="submit"
              className="sf-button sf-button--primary account-settings__submit"
              aria-busy={busy(ACCOUNT_INTENTS.userName) || undefined}
            >
              Save user name
            </button>
          </div>
        </Form>
      </section>
      <section aria-labelledby="settings-password-title">
        <h3 id="settings-password-title">Password</h3>
        <Form
          method="post"
          preventScrollReset
          noValidate
          id={passwordForm.id}
          aria-describedby={formErrorOf(passwordForm)}
        >
          <div className="sf-stack">
            <input type="hidden" name="intent" value={ACCOUNT_INTENTS.password} />
            <FormError errors={passwordForm.errors} id={passwordForm.errorId} />
            <PlainField
              field={passwordFields.currentPassword}
              label="Current password"
              type="password"
              autoComplete="current-password"
            />
            <PlainField
              field={passwordFields.newPassword}
              label="New password"
              type="password"
              placeholder="At least 8 characters"
              autoComplete="new-password"
            />
            <p className="account-settings__text">Changing your password signs you out everywhere else.</p>
            <button
              type="submit"
              className="sf-button sf-button--primary account-settings__submit"
              aria-busy={busy(ACCOUNT_INTENTS.password) || undefined}
            >
              Change password
            </button>
          </div>
        </Form>
      </section>
      <section aria-labelledby="settings-sessions-title">
        <h3 id="settings-sessions-title">Sessions</h3>
        <Form method="post" preventScrollReset>
          <div className="sf-stack">
            <input type="hidden" name="intent" value={ACCOUNT_INTENTS.signOutOthers} />
            <p className="account-settings__text" data-testid="other-sessions">
              {props.otherSessions === 0
                ? "You are not signed in anywhere else."
                : `You are also signed in ${props.otherSessions === 1 ? "in 1 other session" : `in ${props.otherSessions} other sessions`}.`}
            </p>
            <button
              type="submit"
              className="sf-button account-settings__submit"
              aria-busy={busy(ACCOUNT_INTENTS.signOutOthers) || undefined}
            >
              Sign out of all other sessions
            </button>
          </div>
        </Form>
      </section>
    </div>
  );
}
