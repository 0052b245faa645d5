import { readForm } from "~/lib/server/request-body.server";
import {
  type ActionFunctionArgs,
  data,
  Form,
  type LinksFunction,
  type MetaFunction,
  useActionData,
} from "react-router";
import { isAppError } from "~/lib/server/errors.server";
import { lookupGuestOrder } from "~/services/guest-orders.server";
import { clientKeyOf } from "~/web/request.server";
import { GUEST_ORDER_HEADERS } from "~/web/guest-order-headers.server";
import plainFormStyles from "~/styles/plain-forms.css?url";

/**
 * "Find my order" (docs/decisions/0044): a guest gives the email of the order and its number; when such an
 * order exists its link is mailed again under a new token. The page answers the same either way, and a
 * client or an email that asks too often is refused (429) with the service's message. A plain form.
 */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: plainFormStyles }];

export const headers = () => GUEST_ORDER_HEADERS;

export function loader() {
  return data({}, { headers: GUEST_ORDER_HEADERS });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const input = { email: formData.get("email") ?? "", orderId: formData.get("orderId") ?? "" };
  try {
    const { message } = await lookupGuestOrder(input, clientKeyOf(context));
    return data({ sent: message, error: null, errors: {} as Record<string, string[]> });
  } catch (error) {
    if (!isAppError(error) || error.status >= 500) throw error;
    return data(
      { sent: null, error: error.message, errors: error.fieldErrors ?? {} },
      { status: error.status, headers: error.headers },
    );
  }
}

export const meta: MetaFunction = () => [
  { title: "Find my order · ECommerce Shopping" },
  { name: "robots", content: "noindex" },
];

export default function FindGuestOrderPage() {
  const answer = useActionData<typeof action>();
  return (
    <div className="shop-page" style={{ maxWidth: "32rem" }}>
      <h1 className="page-heading">Find my order</h1>
      <p>
        Bought without an account? Give the email of your order and its number: we email you a new link to it.
      </p>
      {answer?.sent ? (
        <p role="status" data-testid="lookup-sent">
          {answer.sent}
        </p>
      ) : null}
      {answer?.error ? (
        <p className="form-error" role="alert" data-testid="lookup-error">
          {answer.error}
        </p>
      ) : null}
      <Form method="post" className="sf-form">
        <div className="sf-field">
          <label htmlFor="lookup-email" className="sf-field__label">
            Email
          </label>
          <input
            id="lookup-email"
            name="email"
            type="email"
            required
            autoComplete="email"
            className="sf-input"
          />
          {answer?.errors.email ? <p className="form-error">{answer.errors.email[0]}</p> : null}
        </div>
        <div className="sf-field">
          <label htmlFor="lookup-order" className="sf-field__label">
            Order number
          </label>
          <input
            id="lookup-order"
            name="orderId"
            required
            maxLength={40}
            className="sf-input"
            placeholder="e.g. 1A2B3C4D"
          />
          {answer?.errors.orderId ? <p className="form-error">{answer.errors.orderId[0]}</p> : null}
        </div>
        <button type="submit" className="sf-button sf-button--primary">
          Email me the link
        </button>
      </Form>
    </div>
  );
}
