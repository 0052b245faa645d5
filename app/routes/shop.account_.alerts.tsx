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
import { AccountTabs } from "~/components/AccountTabs";
import { datePart } from "~/components/OrderTable";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import { ACCOUNT_ALERTS_PATH, productPathWithVariant, STOCK_ALERT_TEXT } from "~/lib/shared/stock-alerts";
import { variantLabel } from "~/lib/shared/variants";
import { deleteStockAlert, listStockAlerts } from "~/services/stock-alerts.server";
import { requireShopper } from "~/web/auth.server";
import { runOrRefuse } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import checkoutStyles from "~/styles/checkout.css?url";
import accountListStyles from "~/styles/account-lists.css?url";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * The shopper's back-in-stock alerts: the sizes they wait for, and the ones
 * that came back (mailed once), each with Remove. Plain POST forms with
 * redirects: it works without JavaScript.
 */

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: checkoutStyles },
  { rel: "stylesheet", href: accountListStyles },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShopper(request);
  return data({ alerts: await listStockAlerts(user.id) });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireShopper(request);
  const formData = await readForm(request);
  if (formData.get("intent") !== "remove") {
    return data({ error: "This form cannot be sent here. Please reload the page." }, { status: 400 });
  }
  return runOrRefuse(
    async () => {
      await deleteStockAlert(user.id, formData.get("alertId"));
      return redirectWithFlash(request, ACCOUNT_ALERTS_PATH, {
        type: "success",
        message: STOCK_ALERT_TEXT.removed,
      });
    },
    (error) => data({ error: error.message }, { status: error.status }),
  );
}

export const meta: MetaFunction = () => [{ title: "Back-in-stock alerts · ECommerce Shopping" }];

export default function AlertsPage() {
  const { alerts } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  return (
    <div className="shop-page">
      <h1 className="page-heading">Account</h1>
      <AccountTabs current="alerts" />
      <section className="account-panel" aria-labelledby="alerts-title">
        <h2 className="account-panel__title" id="alerts-title">
          Back-in-stock alerts
        </h2>
        {refused && "error" in refused ? (
          <p className="form-error" role="alert">
            {refused.error}
          </p>
        ) : null}
        {alerts.length === 0 ? (
          <p className="muted">
            No alerts. On a sold-out size, choose &quot;Notify me when it&apos;s back&quot; and we mail you
            once when it is.
          </p>
        ) : (
          <ul className="stock-alerts" data-testid="stock-alerts">
            {alerts.map((alert) => {
              const option = variantLabel(alert);
              return (
                <li key={alert._id} className="stock-alert" data-testid="stock-alert">
                  <div className="stock-alert__main">
                    <Link
                      to={productPathWithVariant(alert.productId, alert.variantId)}
                      className="stock-alert__title"
                    >
                      {alert.title}
                    </Link>
                    {option ? <span className="stock-alert__option"> · {option}</span> : null}
                    <p className={`stock-alert__status stock-alert__status--${alert.status}`}>
                      {alert.status === "waiting"
                        ? `Waiting since ${datePart(alert.createdAt)}`
                        : `Back in stock: mailed you on ${datePart(alert.notifiedAt ?? alert.createdAt)}`}
                    </p>
                  </div>
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="alertId" value={alert._id} />
                    <button type="submit" className="sf-button sf-button--small">
                      Remove
                      <span className="visually-hidden">
                        : {alert.title} {option}
                      </span>
                    </button>
                  </Form>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
