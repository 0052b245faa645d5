import { Button, Group } from "@mantine/core";
import { Form, Link } from "react-router";

/**
 * A list row's Edit link (`?edit=id`) and Delete button (a post with intent
 * "delete"), both named after the row for screen readers; no JavaScript needed.
 */
export function RowActions({ page, id, name }: { page: string; id: string; name: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Link to={`${page}?edit=${id}`} className="admin-btn" aria-label={`Edit ${name}`}>
        Edit
      </Link>
      <Form method="post" action={page}>
        <input type="hidden" name="id" value={id} />
        <Button
          type="submit"
          name="intent"
          value="delete"
          variant="default"
          color="red"
          aria-label={`Delete ${name}`}
        >
          Delete
        </Button>
      </Form>
    </Group>
  );
}
