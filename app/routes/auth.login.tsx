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
  useNavigation,
  useSearchParams,
} from "react-router";
import { ConformTextInput } from "~/components/FormFields";
import { FlashToast } from "~/components/FlashToast";
import { authenticateLogin, homePathFor, requireAnonymous } from "~/web/auth.server";
import { parseWithSchema } from "~/lib/shared/form-schema";
import { submitOrReply } from "~/web/form-action.server";
import { clientKeyOf, safeRedirect } from "~/web/request.server";
import { loginSchema } from "~/lib/shared/schemas";
import { setFlash } from "~/web/session.server";
import { continueSignIn, TWO_FACTOR_PAGE } from "~/web/two-factor-login.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await readForm(request);
  const submission = parseWithSchema(formData, { schema: loginSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }), toast: null }, { status: 400 });
  }
  // Whatever the sign-in refuses (wrong password, too many attempts) is the form's message, never a field's.
  const outcome = await submitOrReply(
    submission,
    () =>
      authenticateLogin(request, clientKeyOf(context), {
        email: formData.get("email"),
        password: formData.get("password"),
      }),
    { hideFields: ["password"], fieldErrors: () => undefined },
  );
  if (!outcome.ok) {
    return data(
      { result: outcome.result, toast: { type: "error" as const, message: outcome.error.message } },
      outcome.init,
    );
  }
  const user = outcome.value;
  const next = await continueSignIn(request, user);
  const headers = new Headers();
  if (next.step === "code-needed") {
    headers.append("Set-Cookie", next.setCookie);
    // The password was right: the code page finishes the sign-in and then goes where this would have.
    const redirectTo = formData.get("redirectTo");
    const search =
      typeof redirectTo === "string" && redirectTo ? `?${new URLSearchParams({ redirectTo })}` : "";
    return redirect(`${TWO_FACTOR_PAGE}${search}`, { headers });
  }
  for (const value of next.setCookies) headers.append("Set-Cookie", value);
  headers.append("Set-Cookie", await setFlash(request, { type: "success", message: next.message }));
  return redirect(safeRedirect(formData.get("redirectTo"), homePathFor(user)), { headers });
}

export const meta: MetaFunction = () => [
  { title: "Sign in · ECommerce Shopping" },
  { name: "description", content: "Sign in to your ECommerce Shopping account." },
];

export default function LoginPage() {
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "login",
    lastResult: actionData?.result,
    constraint: getZodConstraint(loginSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithSchema(formData, { schema: loginSchema }),
  });
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const registerHref = redirectTo
    ? `/auth/register?${new URLSearchParams({ redirectTo })}`
    : "/auth/register";
  return (
    <Stack gap="lg">
      <FlashToast toast={actionData?.toast} />
      <Stack gap={4} align="center">
        <Title order={1} size="h2">
          Sign in to your account
        </Title>
        <Text size="sm">
          Don&apos;t have an account?{" "}
          <Anchor component={Link} to={registerHref} fw={600}>
            Register
          </Anchor>
        </Text>
      </Stack>
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="md">
          {form.errors?.length ? (
            <Text c="red.7" size="sm" role="alert" id={form.errorId}>
              {form.errors[0]}
            </Text>
          ) : null}
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <ConformTextInput
            field={fields.email}
            label="Email"
            type="email"
            placeholder="Enter your email"
            autoComplete="email"
          />
          <ConformTextInput
            field={fields.password}
            label="Password"
            type="password"
            placeholder="Enter your password"
            autoComplete="current-password"
          />
          <Anchor component={Link} to="/auth/forgot-password" size="sm" ta="right">
            Forgot password?
          </Anchor>
          <Button type="submit" fullWidth loading={navigation.state === "submitting"}>
            Sign In
          </Button>
        </Stack>
      </Form>
    </Stack>
  );
}
