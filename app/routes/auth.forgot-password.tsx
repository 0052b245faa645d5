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
import { forgotPasswordSchema } from "~/lib/shared/account-schemas";
import { requireAnonymous } from "~/web/auth.server";
import { submitOrReply } from "~/web/form-action.server";
import { clientKeyOf } from "~/web/request.server";
import { PASSWORD_RESET_TEXT, requestPasswordReset } from "~/services/password-reset.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * "Forgot password?": the visitor gives an email address and gets the same
 * answer whether or not it has an account (`?sent=1`, after a redirect); the
 * mail, when there is an account, carries a link to /auth/reset-password.
 */

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const sent = new URL(request.url).searchParams.get("sent") === "1";
  return data({ sent, sentMessage: sent ? PASSWORD_RESET_TEXT.requested : null });
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await readForm(request);
  const submission = parseWithSchema(formData, { schema: forgotPasswordSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), toast: null }, { status: 400 });
  }
  // The one field was checked above: a refusal (too many requests) is the form's message.
  const outcome = await submitOrReply(
    submission,
    () => requestPasswordReset(submission.value, clientKeyOf(context)),
    { fieldErrors: () => undefined },
  );
  if (!outcome.ok) {
    return data(
      { result: outcome.result, toast: { type: "error" as const, message: outcome.error.message } },
      outcome.init,
    );
  }
  return redirect("/auth/forgot-password?sent=1");
}

export const meta: MetaFunction = () => [
  { title: "Forgot password · ECommerce Shopping" },
  { name: "description", content: "Get a link to choose a new password for your account." },
];

export default function ForgotPasswordPage() {
  const { sent, sentMessage } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult: actionData?.result,
    constraint: getZodConstraint(forgotPasswordSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithSchema(formData, { schema: forgotPasswordSchema }),
  });
  return (
    <Stack gap="lg">
      <FlashToast toast={actionData?.toast} />
      <Stack gap={4} align="center">
        <Title order={1} size="h2">
          Forgot your password?
        </Title>
        <Text size="sm" ta="center">
          Enter the email address of your account and we will send you a link to choose a new password.
        </Text>
      </Stack>
      {sent ? (
        <Text role="status" data-testid="reset-requested" size="sm" fw={600}>
          {sentMessage}
        </Text>
      ) : null}
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="md">
          {form.errors?.length ? (
            <Text c="red.9" size="sm" role="alert" id={form.errorId}>
              {form.errors[0]}
            </Text>
          ) : null}
          <ConformTextInput
            field={fields.email}
            label="Email"
            type="email"
            placeholder="Enter your email"
            autoComplete="email"
          />
          <Button type="submit" fullWidth loading={navigation.state === "submitting"}>
            Send reset link
          </Button>
        </Stack>
      </Form>
      <Text size="sm" ta="center">
        Remembered it?{" "}
        <Anchor component={Link} to="/auth/login" fw={600}>
          Back to sign in
        </Anchor>
      </Text>
    </Stack>
  );
}
