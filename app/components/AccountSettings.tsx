import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Button, Stack, Text } from "@mantine/core";
import { Form, useNavigation } from "@remix-run/react";
import { ACCOUNT_INTENTS, changePasswordSchema, changeUserNameSchema } from "~/lib/account-schemas";
import { ConformTextInput } from "./FormFields";

/**
 * Account settings (issue 12): user name, password, other sessions. Three
 * plain forms that post an `intent` to the page's action
 * (app/web/account-actions.server.ts), so they work without JavaScript;
 * with it, conform checks the fields as they are typed, with the same schemas.
 */

export interface AccountSettingsProps {
  userName: string;
  email: string;
  otherSessions: number;
  /** The page's last failed submission: which form sent it, and conform's reply. */
  lastSubmission: { intent: string; result: SubmissionResult<string[]> } | null;
}

function resultFor(props: AccountSettingsProps, intent: string) {
  return props.lastSubmission?.intent === intent ? props.lastSubmission.result : undefined;
}

function FormError({ errors, id }: { errors: string[] | undefined; id: string }) {
  return errors?.length ? (
    <Text c="red.9" size="sm" role="alert" id={id}>
      {errors[0]}
    </Text>
  ) : null;
}

export function AccountSettings(props: AccountSettingsProps) {
  const navigation = useNavigation();
  const busy = (intent: string) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const validation = { shouldValidate: "onBlur", shouldRevalidate: "onInput" } as const;
  const [nameForm, nameFields] = useForm({
    id: "account-user-name",
    lastResult: resultFor(props, ACCOUNT_INTENTS.userName),
    defaultValue: { userName: props.userName },
    constraint: getZodConstraint(changeUserNameSchema),
    ...validation,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changeUserNameSchema }),
  });
  const [passwordForm, passwordFields] = useForm({
    id: "account-password",
    lastResult: resultFor(props, ACCOUNT_INTENTS.password),
    constraint: getZodConstraint(changePasswordSchema),
    ...validation,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePasswordSchema }),
  });
  return (
    <Stack gap="xl" className="account-settings">
      <Text size="sm">
        Signed in as <strong>{props.email}</strong>
      </Text>
      <section aria-labelledby="settings-user-name-title">
        <h3 id="settings-user-name-title">User name</h3>
        <Form method="post" preventScrollReset {...getFormProps(nameForm)}>
          <Stack gap="sm">
            <input type="hidden" name="intent" value={ACCOUNT_INTENTS.userName} />
            <FormError errors={nameForm.errors} id={nameForm.errorId} />
            <ConformTextInput field={nameFields.userName} label="User Name" autoComplete="username" />
            <Button type="submit" loading={busy(ACCOUNT_INTENTS.userName)} style={{ alignSelf: "start" }}>
              Save user name
            </Button>
          </Stack>
        </Form>
      </section>
      <section aria-labelledby="settings-password-title">
        <h3 id="settings-password-title">Password</h3>
        <Form method="post" preventScrollReset {...getFormProps(passwordForm)}>
          <Stack gap="sm">
            <input type="hidden" name="intent" value={ACCOUNT_INTENTS.password} />
            <FormError errors={passwordForm.errors} id={passwordForm.errorId} />
            <ConformTextInput
              field={passwordFields.currentPassword}
              label="Current password"
              type="password"
              autoComplete="current-password"
            />
            <ConformTextInput
              field={passwordFields.newPassword}
              label="New password"
              type="password"
              placeholder="At least 8 characters"
              autoComplete="new-password"
            />
            <Text size="sm">Changing your password signs you out everywhere else.</Text>
            <Button type="submit" loading={busy(ACCOUNT_INTENTS.password)} style={{ alignSelf: "start" }}>
              Change password
            </Button>
          </Stack>
        </Form>
      </section>
      <section aria-labelledby="settings-sessions-title">
        <h3 id="settings-sessions-title">Sessions</h3>
        <Form method="post" preventScrollReset>
          <Stack gap="sm">
            <input type="hidden" name="intent" value={ACCOUNT_INTENTS.signOutOthers} />
            <Text size="sm" data-testid="other-sessions">
              {props.otherSessions === 0
                ? "You are not signed in anywhere else."
                : `You are also signed in ${props.otherSessions === 1 ? "in 1 other session" : `in ${props.otherSessions} other sessions`}.`}
            </Text>
            <Button
              type="submit"
              variant="default"
              loading={busy(ACCOUNT_INTENTS.signOutOthers)}
              style={{ alignSelf: "start" }}
            >
              Sign out of all other sessions
            </Button>
          </Stack>
        </Form>
      </section>
    </Stack>
  );
}
