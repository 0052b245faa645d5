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
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import { STOCK_ALERT_TEXT } from "~/lib/shared/stock-alerts";
import { verifiedUnsubscribeUser } from "~/services/stock-alert-links.server";
import { cancelWaitingAlerts } from "~/services/stock-alerts.server";
import { statusViewer } from "~/web/status-viewer.server";
import mantineStyles from "~/styles/mantine.css?url";
import storefrontStyles from "~/styles/storefront.css?url";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * The back-in-stock mail's unsubscribe link (signed, no sign-in): the page
 * shows one button, which ends every alert the shopper still waits for. The
 * GET changes nothing, so a mail scanner that follows links unsubscribes
 * nobody; the POST answers the mail client's one-click unsubscribe (RFC 8058)
 * as well.
 */

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: mantineStyles },
  { rel: "stylesheet", href: storefrontStyles },
];

function signedUser(url: URL): string | null {
  return verifiedUnsubscribeUser(url.searchParams.get("user"), url.searchParams.get("sig"));
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const viewer = await statusViewer(request);
  const valid = signedUser(url) !== null;
  return data({ viewer, valid }, { status: valid ? 200 : 400 });
}

export async function action({ request }: ActionFunctionArgs) {
  await readForm(request);
  const userId = signedUser(new URL(request.url));
  if (!userId) return data({ done: false, cancelled: 0 }, { status: 400 });
  return data({ done: true, cancelled: await cancelWaitingAlerts(userId) });
}

export const meta: MetaFunction = () => [{ title: "Back-in-stock mails · ECommerce Shopping" }];

export default function UnsubscribePage() {
  const { viewer, valid } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <StatusShell viewer={viewer}>
      <h1>Back-in-stock mails</h1>
      {!valid ? (
        <p role="alert">{STOCK_ALERT_TEXT.badLink}</p>
      ) : answer?.done ? (
        <p role="status" data-testid="unsubscribed">
          {STOCK_ALERT_TEXT.unsubscribed}
          {answer.cancelled ? ` (${answer.cancelled} ended).` : "."}
        </p>
      ) : (
        <Form method="post">
          <p>Stop the back-in-stock mails of every size you are still waiting for?</p>
          <button type="submit" className="sf-button sf-button--primary">
            Stop the mails
          </button>
        </Form>
      )}
    </StatusShell>
  );
}
