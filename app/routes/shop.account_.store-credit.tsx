import {
  data,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
} from "react-router";
import { AccountTabs } from "~/components/AccountTabs";
import { datePart } from "~/components/OrderTable";
import { formatPrice } from "~/lib/shared/money";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import { getStoreCredit } from "~/services/gift-cards/store-credit.server";
import { requireShopper } from "~/web/auth.server";
import checkoutStyles from "~/styles/checkout.css?url";
import accountListStyles from "~/styles/account-lists.css?url";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * The shopper's store credit: the balance and every entry of it, newest first (date, amount, reason, the order),
 * from the ledger that `GET /api/account/store-credit` answers. Credit comes from a return refunded as credit and
 * is spent at checkout ("Use my store credit"). Nothing to send: a page of links.
 */

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: checkoutStyles },
  { rel: "stylesheet", href: accountListStyles },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShopper(request);
  const credit = await getStoreCredit(user.id);
  // The page shows four fields of each entry: send only those (the actor is the back office's to see).
  const entries = credit.entries
    .map(({ at, amount, reason, orderId }) => ({ at, amount, reason, orderId }))
    .reverse();
  return data({ balance: credit.balance, entries });
}

export const meta: MetaFunction = () => [{ title: "Store credit · ECommerce Shopping" }];

export default function StoreCreditPage() {
  const { balance, entries } = useLoaderData<typeof loader>();
  return (
    <div className="shop-page">
      <h1 className="page-heading">Account</h1>
      <AccountTabs current="storeCredit" />
      <section className="account-panel" aria-labelledby="store-credit-title">
        <h2 className="account-panel__title" id="store-credit-title">
          Store credit
        </h2>
        <p className="store-credit__balance">
          Balance: <strong data-testid="store-credit-balance">{formatPrice(balance)}</strong>
        </p>
        {entries.length === 0 ? (
          <p className="muted">
            No store credit yet. When you return an item you may take its refund as store credit, and spend it
            at checkout.
          </p>
        ) : (
          <ul className="store-credit-entries" data-testid="store-credit-entries">
            {entries.map((entry, index) => (
              <li
                key={`${entry.at}-${index}`}
                className="store-credit-entry"
                data-testid="store-credit-entry"
              >
                <span className="store-credit-entry__date">{datePart(entry.at)}</span>
                <strong className="store-credit-entry__amount">
                  {entry.amount < 0 ? `−${formatPrice(-entry.amount)}` : `+${formatPrice(entry.amount)}`}
                </strong>
                <span className="store-credit-entry__reason">{entry.reason}</span>
                {entry.orderId ? (
                  <Link
                    to={`/shop/account/orders/${entry.orderId}`}
                    className="sf-link store-credit-entry__order"
                  >
                    View order
                  </Link>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        <p className="muted">Spend it at checkout: tick &quot;Use my store credit&quot;.</p>
      </section>
    </div>
  );
}
