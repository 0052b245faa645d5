import { readForm } from "~/lib/server/request-body.server";
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { Anchor, Button, Stack, Text, Title } from "@mantine/core";
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
  useActionData,
  useLoaderData,
  useNavigation,
} from "react-router";
import { ConformTextInput } from "~/components/FormFields";
import { FlashToast } from "~/components/FlashToast";
import { parseWithSchema } from "~/lib/shared/form-schema";
import { resetPasswordFormSchema } from "~/lib/shared/account-schemas";
import { requireAnonymous } from "~/web/auth.server";
import { submitOrReply } from "~/web/form-action.server";
import { clearResetToken, readResetToken, storeResetToken } from "~/web/reset-token-cookie.server";
import { redirectWithFlash } from "~/web/session.server";
import {
  isPasswordResetTokenValid,
  PASSWORD_RESET_TEXT,
  resetPassword,
} from "~/services/password-reset.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * The mailed link's page. `?token=…` is moved into a short-lived cookie and
 * the browser redirected to this page without it; the form then sets the new
 * password (the registration rules), which ends every session of the account
 * and sends the visitor to sign in.
 */

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const token = new URL(request.url).searchParams.get("token");
  if (token !== null) {
    return redirect("/auth/reset-password", {
      headers: { "Set-Cookie": await storeResetToken(token.slice(0, 200)) },
    });
  }
  const valid = await isPasswordResetTokenValid(await readResetToken(request));
  return data({ valid, invalidMessage: valid ? null : PASSWORD_RESET_TEXT.invalidLink });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await readForm(request);
  const submission = parseWithSchema(formData, { schema: resetPasswordFormSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }), toast: null }, { status: 400 });
  }
  const token = (await readResetToken(request)) ?? "";
  // A bad link is the token's error: the form has no token field, so the toast alone says it.
  const outcome = await submitOrReply(
    submission,
    () => resetPassword({ token, password: submission.value.password }),
    { hideFields: ["password"] },
  );
  if (!outcome.ok) {
    return data(
      { result: outcome.result, toast: { type: "error" as const, message: outcome.error.message } },
      outcome.init,
    );
  }
  return redirectWithFlash(
    request,
    "/auth/login",
    { type: "success", message: PASSWORD_RESET_TEXT.done },
    { headers: { "Set-Cookie": await clearResetToken() } },
  );
}

export const meta: MetaFunction = () => [
  { title: "Choose a new password · ECommerce Shopping" },
  { name: "robots", content: "noindex" },
];

export default function ResetPasswordPage() {
  const { valid, invalidMessage } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult: actionData?.result,
    constraint: getZodConstraint(resetPasswordFormSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithSchema(formData, { schema: resetPasswordFormSchema }),
  });
  return (
    <Stack gap="lg">
      <FlashToast toast={actionData?.toast} />
      <Stack gap={4} align="center">
        <Title order={1} size="h2">
          Choose a new password
        </Title>
      </Stack>
      {valid ? (
        <Form method="post" {...getFormProps(form)}>
          <Stack gap="md">
            {form.errors?.length ? (
              <Text c="red.9" size="sm" role="alert" id={form.errorId}>
                {form.errors[0]}
              </Text>
            ) : null}
            <ConformTextInput
              field={fields.password}
              label="New password"
              type="password"
              placeholder="At least 8 characters"
              autoComplete="new-password"
            />
            <Button type="submit" fullWidth loading={navigation.state === "submitting"}>
              Set new password
            </Button>
          </Stack>
        </Form>
      ) : (
        <Text role="alert" c="red.9" size="sm" data-testid="reset-link-invalid">
          {invalidMessage}
        </Text>
      )}
      <Text size="sm" ta="center">
        <Anchor component={Link} to="/auth/forgot-password" fw={600}>
          Ask for a new link
        </Anchor>{" "}
        ·{" "}
        <Anchor component={Link} to="/auth/login" fw={600}>
          Back to sign in
        </Anchor>
      </Text>
    </Stack>
  );
}
