import { Button, Checkbox, Group, Stack, Text, TextInput } from "@mantine/core";
import { Form, Link } from "react-router";
import { formFields, type SentValues } from "~/lib/shared/admin-form";
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX_LENGTH,
  type WebhookEndpointJson,
} from "~/lib/shared/webhooks";

/** An endpoint as the form's values (a new one: every order event, active). */
export function webhookFormValues(endpoint: WebhookEndpointJson | null): SentValues {
  return {
    url: endpoint?.url ?? "",
    events: endpoint?.events ?? ["order.created", "order.paid", "order.status_changed", "order.refunded"],
    active: endpoint === null || endpoint.active ? "on" : "",
  };
}

interface WebhookEndpointEditorProps {
  intent: "create" | "update";
  id?: string;
  values: SentValues;
  errors: Record<string, string[]>;
  message?: string | null;
  cancelTo: string;
}

/**
 * Adds or edits a webhook endpoint: a plain form that posts to the page (no
 * JavaScript needed); the server checks the URL (https, no private network)
 * and the events, and sends the form back with its messages beside the fields.
 */
export function WebhookEndpointEditor({
  intent,
  id,
  values,
  errors,
  message,
  cancelTo,
}: WebhookEndpointEditorProps) {
  const prefix = id ? `webhook-${id}` : "webhook-new";
  const field = formFields(prefix, values, errors);
  const events = Array.isArray(values.events) ? values.events : values.events ? [values.events] : [];
  return (
    <Form
      method="post"
      noValidate
      aria-label={intent === "create" ? "Add webhook endpoint" : "Edit webhook endpoint"}
    >
      {id ? <input type="hidden" name="id" value={id} /> : null}
      <Stack gap="sm">
        {message ? (
          <Text className="field-error" role="alert">
            {message}
          </Text>
        ) : null}
        <TextInput
          {...field("url")}
          label="URL"
          description="Where the shop POSTs each event (https://, not a private network address)"
          type="url"
          required
          maxLength={WEBHOOK_URL_MAX_LENGTH}
        />
        <fieldset className="discount-form__choices">
          <legend>Events</legend>
          <Group gap="md">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <Checkbox
                key={type}
                id={`${prefix}-event-${type}`}
                name="events"
                value={type}
                label={`${WEBHOOK_EVENT_LABELS[type]} (${type})`}
                defaultChecked={events.includes(type)}
              />
            ))}
          </Group>
          {errors.events?.[0] ? <p className="field-error">{errors.events[0]}</p> : null}
        </fieldset>
        <Checkbox
          id={`${prefix}-active`}
          name="active"
          label="Active (events are sent)"
          defaultChecked={values.active === "on"}
          error={errors.active?.[0]}
        />
        <Group>
          <Button type="submit" name="intent" value={intent}>
            {intent === "create" ? "Add" : "Save"}
          </Button>
          <Link to={cancelTo} className="admin-btn">
            Cancel
          </Link>
        </Group>
      </Stack>
    </Form>
  );
}
