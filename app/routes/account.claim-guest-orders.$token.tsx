import { readForm } from "~/lib/server/request-body.server";
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
} from "react-router";
import { StatusShell } from "~/components/StatusShell";
import { claimedText, GUEST_ORDER_CLAIM_TEXT, waitingText } from "~/lib/shared/guest-order-claims";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import { claimGuestOrders, guestOrdersWaiting } from "~/services/guest-order-claims.server";
import { auditByOf } from "~/web/audit.server";
import { requireShopper } from "~/web/auth.server";
import { runOrRefuse } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import { statusViewer } from "~/web/status-viewer.server";
import mantineStyles from "~/styles/mantine.css?url";
import storefrontStyles from "~/styles/storefront.css?url";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * The mailed link that adds the guest orders of an address to the account of that address (API.md, "One
 * customer per email"). The GET only shows what a POST would do, so a mail scanner that follows links
 * claims nothing; the button is a plain form. Not signed in: the sign-in comes back here. Signed in as
 * another account (403), or a link used, expired (410) or unknown (404): the page says so.
 */

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: mantineStyles },
  { rel: "stylesheet", href: storefrontStyles },
];

const ORDER_HISTORY = "/shop/account";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await statusViewer(request);
  const user = await requireShopper(request);
  return runOrRefuse(
    async () => data({ viewer, waiting: await guestOrdersWaiting(params.token ?? "", user), refusal: null }),
    (error) => data({ viewer, waiting: 0, refusal: error.message }, { status: error.status }),
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireShopper(request);
  await readForm(request);
  return runOrRefuse(
    async () => {
      const claimed = await claimGuestOrders(params.token ?? "", user, auditByOf(user, context));
      return redirectWithFlash(request, ORDER_HISTORY, {
        type: "success",
        message: claimedText(claimed.length),
      });
    },
    (error) => data({ refusal: error.message }, { status: error.status }),
  );
}

export const meta: MetaFunction = () => [{ title: "Orders placed as a guest · ECommerce Shopping" }];

export default function ClaimGuestOrdersPage() {
  const { viewer, waiting, refusal } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const message = answer?.refusal ?? refusal;
  return (
    <StatusShell viewer={viewer}>
      <h1>Orders placed as a guest</h1>
      {message ? (
        <p role="alert" data-testid="claim-refusal">
          {message}
        </p>
      ) : (
        <Form method="post">
          <p>{waitingText(waiting)}</p>
          <button type="submit" className="sf-button sf-button--primary">
            {GUEST_ORDER_CLAIM_TEXT.confirm}
          </button>
        </Form>
      )}
      <p>
        <Link to={ORDER_HISTORY}>Your order history</Link>
      </p>
    </StatusShell>
  );
}
