import { Button, Code, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { Form } from "react-router";
import { ConfirmDisclosure } from "~/components/ConfirmDisclosure";
import { formFields, utcText, type AdminFormReply } from "~/lib/shared/admin-form";
import { PERMISSION_LABELS, type Permission } from "~/lib/shared/permissions";
import type { ApiKeyView } from "~/lib/shared/staff-schemas";
import { PermissionCheckboxes } from "./PermissionCheckboxes";

/**
 * The staff page's API keys: the keys that work (name, last four characters,
 * permissions, last use, expiry) with Revoke behind a confirmation, the
 * form that makes one, and the new key's secret, shown in the answer to that
 * form only (it is never stored, so it cannot be shown again).
 */
export function ApiKeysSection({
  keys,
  choices,
  reply,
  created,
}: {
  keys: ApiKeyView[];
  choices: readonly Permission[];
  reply: AdminFormReply | undefined;
  created: { name: string; secret: string } | undefined;
}) {
  const values = reply?.values ?? { name: "", expiresAt: "" };
  const errors = reply?.errors ?? {};
  const field = formFields("api-key", values, errors);
  const sent = values.permissions;
  return (
    <section className="admin-card" aria-labelledby="api-keys-heading">
      <Title order={2} size="h4" mb="xs" id="api-keys-heading">
        API keys
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        A program (a warehouse system, accounting) calls the JSON API with a key:{" "}
        <Code>Authorization: Bearer shop_sk_…</Code>. A key holds at most your permissions and never Staff;
        its changes are on the audit log under its name.
      </Text>
      {created ? (
        <div className="api-key-secret" role="status" data-testid="api-key-secret">
          <Text fw={600}>The secret of “{created.name}” (shown only this once: copy it now)</Text>
          <Code block>{created.secret}</Code>
        </div>
      ) : null}
      {keys.length ? (
        <ul className="api-key-list" aria-label="API keys">
          {keys.map((key) => (
            <li key={key._id} className="api-key-list__item">
              <div>
                <Text fw={600}>
                  {key.name} <Code>…{key.lastFour}</Code>
                </Text>
                <Text size="sm">
                  {key.permissions.map((permission) => PERMISSION_LABELS[permission].label).join(", ")}
                </Text>
                <Text size="xs" c="dimmed">
                  Made by {key.createdBy.userName} · last used{" "}
                  {key.lastUsedAt ? utcText(key.lastUsedAt) : "never"} ·{" "}
                  {key.expiresAt ? `expires ${utcText(key.expiresAt)}` : "does not expire"}
                </Text>
              </div>
              <ConfirmDisclosure
                label={`Revoke ${key.name}`}
                toggle="Revoke"
                question={`Revoke “${key.name}”? Programs using it are refused from their next call.`}
              >
                <Form method="post">
                  <input type="hidden" name="id" value={key._id} />
                  <Button type="submit" name="intent" value="revoke-key" color="red">
                    Revoke {key.name}
                  </Button>
                </Form>
              </ConfirmDisclosure>
            </li>
          ))}
        </ul>
      ) : (
        <Text c="dimmed" mb="sm">
          No API keys.
        </Text>
      )}
      <Form method="post" noValidate aria-label="Make an API key">
        <Stack gap="sm" maw={640}>
          <Title order={3} size="h5">
            Make a key
          </Title>
          {reply?.message ? (
            <Text className="field-error" role="alert">
              {reply.message}
            </Text>
          ) : null}
          <TextInput
            {...field("name")}
            label="Name"
            description="Who uses it, such as “Warehouse”"
            maxLength={60}
            required
          />
          <PermissionCheckboxes
            idPrefix="api-key"
            legend="Permissions"
            choices={choices}
            selected={Array.isArray(sent) ? sent : []}
            error={errors.permissions?.[0]}
          />
          <TextInput
            {...field("expiresAt")}
            type="date"
            label="Expires (optional)"
            description="At the end of this day (UTC); empty: never"
          />
          <Group>
            <Button type="submit" name="intent" value="create-key">
              Make key
            </Button>
          </Group>
        </Stack>
      </Form>
    </section>
  );
}
