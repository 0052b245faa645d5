import { Button, Checkbox, Radio, Stack, Text, TextInput, Title } from "@mantine/core";
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
import { adminPageLinks } from "~/components/admin/AdminRecordsPage";
import { readForm } from "~/lib/server/request-body.server";
import { formFields, type AdminFormReply, type SentValues } from "~/lib/shared/admin-form";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import {
  STOREFRONT_MODE_LABELS,
  STOREFRONT_MODES,
  type StoreSettingsJson,
} from "~/lib/shared/store-settings";
import { getStoreSettings, SETTINGS_TEXT, updateStoreSettings } from "~/services/store-settings.server";
import { refuseAdminForm } from "~/web/admin-form.server";
import { auditByOf } from "~/web/audit.server";
import { requireArea } from "~/web/auth.server";
import { runOrRefuse } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => adminPageLinks;

const PAGE = "/admin/settings";
const FORM = "settings";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "settings");
  return data({ settings: await getStoreSettings() });
}

/** The form as the service reads it: an unticked box sends nothing, which is "false". */
function inputOf(formData: FormData) {
  return {
    storefront: String(formData.get("storefront") ?? ""),
    guestCheckout: formData.get("guestCheckout") === "on" ? "true" : "false",
    abandonedCartMails: formData.get("abandonedCartMails") === "on" ? "true" : "false",
    // A form without the field (a page from before it) leaves the amounts as they are; an empty one stops sales.
    ...(formData.has("giftCardAmounts") ? { giftCardAmounts: String(formData.get("giftCardAmounts")) } : {}),
    version: String(formData.get("version") ?? ""),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireArea(request, "settings");
  const formData = await readForm(request);
  const input = inputOf(formData);
  return runOrRefuse(
    async () => {
      await updateStoreSettings(input, auditByOf(user, context));
      return redirectWithFlash(request, PAGE, { type: "success", message: SETTINGS_TEXT.updated });
    },
    (error) =>
      refuseAdminForm(
        FORM,
        {
          ...input,
          guestCheckout: input.guestCheckout === "true" ? "on" : "",
          abandonedCartMails: input.abandonedCartMails === "true" ? "on" : "",
        },
        error,
      ),
  );
}

export const meta: MetaFunction = () => [{ title: "Settings · ECommerce Shopping" }];

function formValues(settings: StoreSettingsJson): SentValues {
  return {
    storefront: settings.storefront,
    guestCheckout: settings.guestCheckout ? "on" : "",
    abandonedCartMails: settings.abandonedCartMails ? "on" : "",
    giftCardAmounts: settings.giftCardAmounts.join(", "),
    version: String(settings.version),
  };
}

/**
 * The store's settings in one plain form (no JavaScript needed): a refusal comes back with what was
 * sent and the message beside its field; a form based on an older version is refused (409) with a
 * link that loads the current one.
 */
export default function AdminSettings() {
  const { settings } = useLoaderData<typeof loader>();
  const reply = useActionData() as AdminFormReply | undefined;
  const values = reply?.form === FORM ? reply.values : formValues(settings);
  const field = formFields(FORM, values, reply?.errors ?? {});
  const storefront = field("storefront");
  const guest = field.box("guestCheckout");
  const abandonedCartMails = field.box("abandonedCartMails");
  const giftCardAmounts = field("giftCardAmounts");
  return (
    <section className="admin-page">
      <div className="admin-card">
        <Title order={1} size="h3" mb="md">
          Settings
        </Title>
        <Form method="post" noValidate aria-label="Store settings" key={JSON.stringify(values)}>
          <input type="hidden" name="version" value={String(values.version ?? "")} />
          <Stack gap="md">
            {reply?.message ? (
              <Text className="field-error" role="alert">
                {reply.message}
                {reply.stale ? (
                  <>
                    {" "}
                    <a href={PAGE}>Load the current settings</a>
                  </>
                ) : null}
              </Text>
            ) : null}
            <fieldset className="discount-form__choices">
              <legend>Who may browse the shop</legend>
              <Stack gap="sm">
                {STOREFRONT_MODES.map((mode) => (
                  <Radio
                    key={mode}
                    id={`${storefront.id}-${mode}`}
                    name="storefront"
                    value={mode}
                    defaultChecked={storefront.defaultValue === mode}
                    label={STOREFRONT_MODE_LABELS[mode].label}
                    description={STOREFRONT_MODE_LABELS[mode].description}
                  />
                ))}
              </Stack>
              {storefront.error ? <p className="field-error">{storefront.error}</p> : null}
            </fieldset>
            <Checkbox
              {...guest}
              label="Guest checkout"
              description="Visitors may buy without an account (needs the open storefront). Their orders are found again through the link in their confirmation mail."
            />
            <Checkbox
              {...abandonedCartMails}
              label="Abandoned-cart mails"
              description="A cart left untouched gets at most two reminder mails, only when its owner agreed to them."
            />
            <TextInput
              {...giftCardAmounts}
              label="Gift card amounts"
              description="The amounts shoppers may choose, in dollars, separated by commas (empty: gift cards are not sold)"
              inputMode="decimal"
            />
            <Text size="sm" c="dimmed">
              Version {settings.version}, last changed{" "}
              {settings.version > 1 ? new Date(settings.updatedAt).toUTCString() : "never"}. Every change is
              on the audit log.
            </Text>
            <div>
              <Button type="submit">Save</Button>
            </div>
          </Stack>
        </Form>
      </div>
    </section>
  );
}
