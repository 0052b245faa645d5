import { Badge, Button, Group, Text } from "@mantine/core";
import { Form } from "react-router";
import { ConfirmDisclosure } from "~/components/ConfirmDisclosure";
import { PERMISSION_LABELS, type Permission } from "~/lib/shared/permissions";
import type { AdminFormReply } from "~/lib/shared/admin-form";
import type { StaffMemberView } from "~/lib/shared/staff-schemas";
import { PermissionCheckboxes } from "./PermissionCheckboxes";

interface Viewer {
  id: string;
  role: string;
  permissions: Permission[];
}

/**
 * The back office's people, one card each (a table would not fit a phone):
 * a staff member's permissions as checkboxes with a Save button, Disable or
 * Enable, and Remove behind a confirmation. Each is a plain form posting to
 * the page. What the viewer may not do (change themselves, an admin unless
 * they are one, a permission they lack) is not offered; the server refuses it
 * anyway.
 */
export function StaffList({
  people,
  viewer,
  reply,
}: {
  people: StaffMemberView[];
  viewer: Viewer;
  reply: AdminFormReply | undefined;
}) {
  return (
    <ul className="staff-list" aria-label="Staff">
      {people.map((person) => (
        <li key={person._id} className="admin-card staff-card" data-testid="staff-card">
          <PersonHeader person={person} isViewer={person._id === viewer.id} />
          <PersonControls
            person={person}
            viewer={viewer}
            reply={reply?.form === person._id ? reply : undefined}
          />
        </li>
      ))}
    </ul>
  );
}

function PersonHeader({ person, isViewer }: { person: StaffMemberView; isViewer: boolean }) {
  return (
    <div className="staff-card__head">
      <div>
        <Text fw={700}>
          {person.userName}
          {isViewer ? " (you)" : ""}
        </Text>
        <Text size="sm" c="dimmed" className="staff-card__email">
          {person.email}
        </Text>
      </div>
      <Group gap={6}>
        <Badge variant="outline" color="dark">
          {person.role === "admin" ? "Admin" : "Staff"}
        </Badge>
        {person.disabled ? (
          <Badge color="red" variant="light" c="dark.9">
            Disabled
          </Badge>
        ) : null}
        {person.invitationPending ? (
          <Badge color="yellow" variant="light" c="dark.9">
            Invitation pending
          </Badge>
        ) : null}
        {person.twoFactorEnabled ? (
          <Badge color="green" variant="light" c="dark.9">
            Two-factor on
          </Badge>
        ) : null}
      </Group>
    </div>
  );
}

function PersonControls({
  person,
  viewer,
  reply,
}: {
  person: StaffMemberView;
  viewer: Viewer;
  reply: AdminFormReply | undefined;
}) {
  if (person._id === viewer.id) {
    return (
      <Text size="sm" c="dimmed">
        {summary(person)}. Nobody changes their own permissions: another admin or staff manager does.
      </Text>
    );
  }
  const mayTouchAdmin = viewer.role === "admin";
  if (person.role === "admin" && !mayTouchAdmin) return <Text size="sm">{summary(person)}</Text>;
  const sent = reply?.values.permissions;
  return (
    <>
      {person.role === "admin" ? (
        <Text size="sm">{summary(person)}</Text>
      ) : (
        <Form method="post" aria-label={`Permissions of ${person.userName}`}>
          <input type="hidden" name="id" value={person._id} />
          {/* Kept as they are: the viewer cannot give or take what they do not hold. */}
          {person.permissions
            .filter((permission) => !viewer.permissions.includes(permission))
            .map((permission) => (
              <input key={permission} type="hidden" name="permissions" value={permission} />
            ))}
          {reply?.message ? (
            <Text className="field-error" role="alert" size="sm">
              {reply.message}
            </Text>
          ) : null}
          <PermissionCheckboxes
            idPrefix={`staff-${person._id}`}
            legend="Permissions"
            choices={viewer.permissions}
            selected={Array.isArray(sent) ? sent : person.permissions}
            error={reply?.errors.permissions?.[0]}
          />
          {person.permissions.some((permission) => !viewer.permissions.includes(permission)) ? (
            <Text size="xs" c="dimmed">
              Also holds{" "}
              {person.permissions
                .filter((permission) => !viewer.permissions.includes(permission))
                .map((permission) => PERMISSION_LABELS[permission].label)
                .join(", ")}
              , which you cannot change.
            </Text>
          ) : null}
          <Button type="submit" name="intent" value="permissions" variant="default" mt="xs">
            Save permissions
          </Button>
        </Form>
      )}
      <Group gap="xs" mt="sm" className="staff-card__actions">
        <Form method="post">
          <input type="hidden" name="id" value={person._id} />
          <Button
            type="submit"
            name="intent"
            value={person.disabled ? "enable" : "disable"}
            variant="default"
            aria-label={`${person.disabled ? "Enable" : "Disable"} ${person.userName}`}
          >
            {person.disabled ? "Enable" : "Disable"}
          </Button>
        </Form>
        {person.twoFactorEnabled && (person.role !== "admin" || mayTouchAdmin) ? (
          <ConfirmDisclosure
            label={`Reset two-factor sign-in of ${person.userName}`}
            toggle="Reset two-factor"
            question={`Turn off ${person.userName}'s two-factor sign-in? They sign in with their password alone until they set it up again.`}
          >
            <Form method="post">
              <input type="hidden" name="id" value={person._id} />
              <Button type="submit" name="intent" value="reset-two-factor" color="red">
                Reset two-factor of {person.userName}
              </Button>
            </Form>
          </ConfirmDisclosure>
        ) : null}
        <ConfirmDisclosure
          label={`Remove ${person.userName}`}
          toggle="Remove"
          question={`Remove ${person.userName} from the back office? Their sign-in and API keys end.`}
        >
          <Form method="post">
            <input type="hidden" name="id" value={person._id} />
            <Button type="submit" name="intent" value="remove" color="red">
              Remove {person.userName}
            </Button>
          </Form>
        </ConfirmDisclosure>
      </Group>
    </>
  );
}

function summary(person: StaffMemberView): string {
  if (person.role === "admin") return "Holds every permission";
  if (!person.permissions.length) return "No areas yet";
  return `May open: ${person.permissions.map((permission) => PERMISSION_LABELS[permission].label).join(", ")}`;
}
