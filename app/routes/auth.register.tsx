import { joinVisitorCart } from "~/web/guest-cart.server";
import { REGISTERED_MESSAGE } from "~/web/two-factor-login.server";
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
  useActionData,
  useNavigation,
  useSearchParams,
} from "react-router";
import { ConformTextInput } from "~/components/FormFields";
import { FlashToast } from "~/components/FlashToast";
import { requireAnonymous } from "~/web/auth.server";
import { parseWithSchema } from "~/lib/shared/form-schema";
import { submitOrReply } from "~/web/form-action.server";
import { consumeRegistration } from "~/services/rate-limit.server";
import { clientKeyOf, safeRedirect } from "~/web/request.server";
import { registerSchema } from "~/lib/shared/schemas";
import { redirectWithFlash } from "~/web/session.server";
import { registerUser } from "~/services/users.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await readForm(request);
  const submission = parseWithSchema(formData, { schema: registerSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }), toast: null }, { status: 400 });
  }
  const outcome = await submitOrReply(
    submission,
    async () => {
      await consumeRegistration(clientKeyOf(context));
      // A visitor's cart joins the new account's (no session starts: the person signs in next).
      return joinVisitorCart(request, (await registerUser(submission.value)).id);
    },
    {
      hideFields: ["password"],
      // A taken address (409) belongs to the email field; any other refusal is the form's message.
      fieldErrors: (error) => (error.status === 409 ? { email: [error.message] } : undefined),
    },
  );
  if (!outcome.ok) {
    return data(
      { result: outcome.result, toast: { type: "error" as const, message: outcome.error.message } },
      outcome.init,
    );
  }
  const redirectTo = safeRedirect(formData.get("redirectTo"), "");
  const loginUrl = redirectTo ? `/auth/login?${new URLSearchParams({ redirectTo })}` : "/auth/login";
  const joined = outcome.value;
  const message = joined.note ? `${REGISTERED_MESSAGE}. ${joined.note}` : REGISTERED_MESSAGE;
  const headers = new Headers();
  for (const value of joined.setCookies) headers.append("Set-Cookie", value);
  return redirectWithFlash(request, loginUrl, { type: "success", message }, { headers });
}

export const meta: MetaFunction = () => [
  { title: "Create an account · ECommerce Shopping" },
  { name: "description", content: "Create your ECommerce Shopping account." },
];

export default function RegisterPage() {
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "register",
    lastResult: actionData?.result,
    constraint: getZodConstraint(registerSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithSchema(formData, { schema: registerSchema }),
  });
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const loginHref = redirectTo ? `/auth/login?${new URLSearchParams({ redirectTo })}` : "/auth/login";
  return (
    <Stack gap="lg">
      <FlashToast toast={actionData?.toast} />
      <Stack gap={4} align="center">
        <Title order={1} size="h2">
          Create new account
        </Title>
        <Text size="sm">
          Already have an account?{" "}
          <Anchor component={Link} to={loginHref} fw={600}>
            Login
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
            field={fields.userName}
            label="User Name"
            placeholder="Enter your user name"
            autoComplete="username"
          />
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
            autoComplete="new-password"
          />
          <Button type="submit" fullWidth loading={navigation.state === "submitting"}>
            Sign Up
          </Button>
        </Stack>
      </Form>
    </Stack>
  );
}
