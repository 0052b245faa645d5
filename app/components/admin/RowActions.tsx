import { Button, Group } from "@mantine/core";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { RECORD_INTENTS } from "~/lib/shared/admin-form";

interface RowActionsProps {
  page: string;
  id: string;
  name: string;
  /** The row's version, when its rows have one: a delete of a row changed since is refused. */
  version?: number;
  /** Links shown before Edit (a webhook's deliveries). */
  before?: ReactNode;
  /** False for rows that are never deleted (a gift card is disabled instead). */
  deletable?: boolean;
}

/**
 * A list row's Edit link (`?edit=id`) and Delete button (a post with intent
 * "delete" and the version shown), both named after the row for screen
 * readers; no JavaScript needed.
 */
export function RowActions({ page, id, name, version, before, deletable = true }: RowActionsProps) {
  return (
    <Group gap="xs" wrap="nowrap">
      {before}
      <Link to={`${page}?edit=${id}`} className="admin-btn" aria-label={`Edit ${name}`}>
        Edit
      </Link>
      {deletable ? (
        <Form method="post" action={page}>
          <input type="hidden" name="id" value={id} />
          {version === undefined ? null : <input type="hidden" name="version" value={version} />}
          <Button
            type="submit"
            name="intent"
            value={RECORD_INTENTS.delete}
            variant="default"
            color="red"
            aria-label={`Delete ${name}`}
          >
            Delete
          </Button>
        </Form>
      ) : null}
    </Group>
  );
}
