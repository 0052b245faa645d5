import { Anchor, Button, Stack, Text, TextInput, Title } from "@mantine/core";
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
  useActionData,
  useNavigation,
  useSearchParams,
} from "react-router";
import { readForm } from "~/lib/server/request-body.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import { CODE_MAX_LENGTH, TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";
import { homePathFor, requireAnonymous } from "~/web/auth.server";
import { runOrRefuse } from "~/web/form-action.server";
import { safeRedirect } from "~/web/request.server";
import { redirectWithFlash, setFlash } from "~/web/session.server";
import { completeSignIn, hasChallenge } from "~/web/two-factor-login.server";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * The sign-in's second step: after a right password, a person with two-factor sign-in enters the
 * code of their authenticator app, or one of their backup codes in the same field. A plain form
 * (without JavaScript too). Without the challenge cookie (expired, or never signed in) the person
 * starts again at the sign-in page.
 */

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  if (!(await hasChallenge(request))) {
    throw await redirectWithFlash(request, "/auth/login", {
      type: "error",
      message: TWO_FACTOR_TEXT.challengeExpired,
    });
  }
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await readForm(request);
  const code = formData.get("code");
  if (typeof code !== "string" || code.trim() === "") {
    return data({ error: TWO_FACTOR_TEXT.codeRequired, restart: false }, { status: 400 });
  }
  return runOrRefuse(
    async () => {
      const { user, setCookies, message } = await completeSignIn(request, code);
      const headers = new Headers();
      for (const value of setCookies) headers.append("Set-Cookie", value);
      headers.append("Set-Cookie", await setFlash(request, { type: "success", message }));
      return redirect(safeRedirect(formData.get("redirectTo"), homePathFor(user)), { headers });
    },
    (error) => {
      // A spent or expired challenge needs the password again; a wrong code may be typed again.
      const restart = error.status === 429 || error.message === TWO_FACTOR_TEXT.challengeExpired;
      return data({ error: error.message, restart }, { status: error.status, headers: error.headers });
    },
  );
}

export const meta: MetaFunction = () => [
  { title: "Two-factor sign-in · ECommerce Shopping" },
  { name: "robots", content: "noindex" },
];

export default function TwoFactorCodePage() {
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const loginHref = redirectTo ? `/auth/login?${new URLSearchParams({ redirectTo })}` : "/auth/login";
  return (
    <Stack gap="lg">
      <Stack gap={4} align="center">
        <Title order={1} size="h2">
          Two-factor sign-in
        </Title>
        <Text size="sm" ta="center">
          Enter the 6-digit code from your authenticator app. Lost your phone? Enter one of your backup codes
          instead.
        </Text>
      </Stack>
      {actionData?.restart ? (
        <Stack gap="sm">
          <Text c="red.7" size="sm" role="alert">
            {actionData.error}
          </Text>
          <Button component={Link} to={loginHref} fullWidth>
            Sign in again
          </Button>
        </Stack>
      ) : (
        <Form method="post">
          <Stack gap="md">
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <TextInput
              name="code"
              label="Code"
              placeholder="123456 or a backup code"
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              required
              maxLength={CODE_MAX_LENGTH}
              error={actionData?.error}
              errorProps={{ role: "alert" }}
            />
            <Button type="submit" fullWidth loading={navigation.state === "submitting"}>
              Verify
            </Button>
            <Anchor component={Link} to={loginHref} size="sm" ta="center">
              Start again with your password
            </Anchor>
          </Stack>
        </Form>
      )}
    </Stack>
  );
}
