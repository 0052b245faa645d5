import { Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import {
  type ActionFunctionArgs,
  data,
  Form,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
} from "react-router";
import { ApiKeysSection } from "~/components/admin/ApiKeysSection";
import { PermissionCheckboxes } from "~/components/admin/PermissionCheckboxes";
import { StaffList } from "~/components/admin/StaffList";
import { readForm } from "~/lib/server/request-body.server";
import { formFields, type AdminFormReply } from "~/lib/shared/admin-form";
import { API_KEY_PERMISSIONS, permissionsOf } from "~/lib/shared/permissions";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import { listApiKeys } from "~/services/api-keys.server";
import { listStaff } from "~/services/staff.server";
import { INVITE_VALID_HOURS } from "~/lib/shared/staff-schemas";
import { auditByOf } from "~/web/audit.server";
import { requireArea } from "~/web/auth.server";
import { handleStaffAction, type CreatedKeyReply } from "~/web/staff-actions.server";
import adminStyles from "~/styles/admin.css?url";
import staffStyles from "~/styles/admin-staff.css?url";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: adminStyles },
  { rel: "stylesheet", href: staffStyles },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireArea(request, "staff");
  const [people, keys] = await Promise.all([listStaff(), listApiKeys()]);
  return data({
    viewer: { id: user.id, role: user.role, permissions: permissionsOf(user) },
    people,
    keys,
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireArea(request, "staff");
  return handleStaffAction(request, user, auditByOf(user, context), await readForm(request));
}

export const meta: MetaFunction = () => [{ title: "Staff · ECommerce Shopping" }];

function InviteForm({
  choices,
  reply,
}: {
  choices: ReturnType<typeof permissionsOf>;
  reply: AdminFormReply | undefined;
}) {
  const values = reply?.values ?? { email: "", userName: "" };
  const errors = reply?.errors ?? {};
  const field = formFields("invite", values, errors);
  const sent = values.permissions;
  return (
    <section className="admin-card" aria-labelledby="invite-heading">
      <Title order={2} size="h4" mb="xs" id="invite-heading">
        Invite a staff member
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        They get a mail with a link to choose a password, valid {INVITE_VALID_HOURS} hours, and see only the
        areas you tick. You can give only permissions you hold.
      </Text>
      <Form method="post" noValidate aria-label="Invite a staff member">
        <Stack gap="sm" maw={640}>
          {reply?.message ? (
            <Text className="field-error" role="alert">
              {reply.message}
            </Text>
          ) : null}
          <Group grow align="flex-start" className="staff-invite__fields">
            <TextInput {...field("email")} type="email" label="Email" required autoComplete="off" />
            <TextInput {...field("userName")} label="Name" required maxLength={50} />
          </Group>
          <PermissionCheckboxes
            idPrefix="invite"
            legend="Permissions"
            choices={choices}
            selected={Array.isArray(sent) ? sent : []}
            error={errors.permissions?.[0]}
          />
          <Group>
            <Button type="submit" name="intent" value="invite">
              Send invitation
            </Button>
          </Group>
        </Stack>
      </Form>
    </section>
  );
}

export default function AdminStaff() {
  const { viewer, people, keys } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as AdminFormReply | CreatedKeyReply | undefined;
  const reply = answer && "form" in answer ? answer : undefined;
  const created = answer && "created" in answer ? answer.created : undefined;
  const keyChoices = API_KEY_PERMISSIONS.filter((permission) => viewer.permissions.includes(permission));
  return (
    <section className="admin-page staff-page">
      <Title order={1} size="h3" mb="md">
        Staff
      </Title>
      <InviteForm choices={viewer.permissions} reply={reply?.form === "invite" ? reply : undefined} />
      <StaffList people={people} viewer={viewer} reply={reply} />
      <ApiKeysSection
        keys={keys}
        choices={keyChoices}
        reply={reply?.form === "api-key" ? reply : undefined}
        created={created}
      />
    </section>
  );
}
