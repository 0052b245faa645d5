import { Checkbox, TextInput } from "@mantine/core";
import type { SentValues } from "~/lib/shared/admin-form";
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX_LENGTH,
  type WebhookEndpointJson,
} from "~/lib/shared/webhooks";
import { ChoiceGroup, type RecordFormFields } from "./AdminRecordForm";

const EVENT_OPTIONS = WEBHOOK_EVENT_TYPES.map((type) => ({
  value: type,
  label: `${WEBHOOK_EVENT_LABELS[type]} (${type})`,
}));

/** An endpoint as the form's values (a new one: every order event, active). */
export function webhookFormValues(endpoint: WebhookEndpointJson | null): SentValues {
  return {
    url: endpoint?.url ?? "",
    events: endpoint?.events ?? ["order.created", "order.paid", "order.status_changed", "order.refunded"],
    active: endpoint === null || endpoint.active ? "on" : "",
  };
}

/** A webhook endpoint's fields; the server checks the URL (https, no private network) and the events. */
export function WebhookEndpointFields({ field }: RecordFormFields) {
  return (
    <>
      <TextInput
        {...field("url")}
        label="URL"
        description="Where the shop POSTs each event (https://, not a private network address)"
        type="url"
        required
        maxLength={WEBHOOK_URL_MAX_LENGTH}
      />
      <ChoiceGroup {...field.choices("events", "event")} legend="Events" options={EVENT_OPTIONS} />
      <Checkbox {...field.box("active")} label="Active (events are sent)" />
    </>
  );
}
