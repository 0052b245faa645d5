import { readForm } from "~/lib/server/request-body.server";
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
import { StatusShell } from "~/components/StatusShell";
import { MARKETING_TEXT } from "~/lib/shared/abandoned-carts";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import { isUnsubscribeLink, unsubscribeByLink } from "~/services/abandoned-carts.server";
import { statusViewer } from "~/web/status-viewer.server";
import mantineStyles from "~/styles/mantine.css?url";
import storefrontStyles from "~/styles/storefront.css?url";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * An abandoned-cart mail's unsubscribe link (no sign-in: the random token is the proof). The GET changes
 * nothing, so a mail scanner that follows links withdraws nobody's consent; it shows one button. The POST
 * withdraws the consent, for that button and for the mail client's one-click unsubscribe (RFC 8058: a POST
 * of `List-Unsubscribe=One-Click` to the List-Unsubscribe URL, without cookies).
 */

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: mantineStyles },
  { rel: "stylesheet", href: storefrontStyles },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await statusViewer(request);
  const valid = await isUnsubscribeLink(params.token);
  return data({ viewer, valid }, { status: valid ? 200 : 404 });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await readForm(request);
  const done = await unsubscribeByLink(params.token);
  return data({ done }, { status: done ? 200 : 404 });
}

export const meta: MetaFunction = () => [{ title: "Cart and offer mails · ECommerce Shopping" }];

export default function MarketingUnsubscribePage() {
  const { viewer, valid } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <StatusShell viewer={viewer}>
      <h1>Cart and offer mails</h1>
      {!valid || answer?.done === false ? (
        <p role="alert">{MARKETING_TEXT.badLink}</p>
      ) : answer?.done ? (
        <p role="status" data-testid="unsubscribed">
          {MARKETING_TEXT.unsubscribed}
        </p>
      ) : (
        <Form method="post">
          <p>Stop the mails about your cart and offers?</p>
          <button type="submit" className="sf-button sf-button--primary">
            Unsubscribe
          </button>
        </Form>
      )}
    </StatusShell>
  );
}
