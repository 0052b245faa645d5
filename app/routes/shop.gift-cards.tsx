import { getFormProps, useForm } from "@conform-to/react";
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
import { PlainField } from "~/components/PlainField";
import { readForm } from "~/lib/server/request-body.server";
import { parseWithSchema } from "~/lib/shared/form-schema";
import { buyGiftCardSchema, GIFT_CARD_BUY_TEXT, GIFT_CARD_MESSAGE_MAX } from "~/lib/shared/gift-cards";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import { isGuestCart, type CartOwner } from "~/services/cart-owner.server";
import { addGiftCardToCart } from "~/services/gift-cards/card-lines.server";
import { currentStoreSettings } from "~/services/store-settings.server";
import { shopperOrVisitor } from "~/web/auth.server";
import { submitOrReply } from "~/web/form-action.server";
import { guestCartOf, keepGuestCart } from "~/web/guest-cart.server";
import { redirectWithFlash } from "~/web/session.server";
import plainFormStyles from "~/styles/plain-forms.css?url";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * The gift card page (API.md, "Gift cards and store credit"): an amount from the owner's list, the recipient
 * and a message, added to the cart by a plain form (POST, then the cart page): it works without JavaScript,
 * and the server checks everything (addGiftCardToCart, the API's rule), so the page carries no validation code.
 */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: plainFormStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await shopperOrVisitor(request);
  const { giftCardAmounts } = await currentStoreSettings();
  return data({ amounts: giftCardAmounts, messageMax: GIFT_CARD_MESSAGE_MAX });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await shopperOrVisitor(request);
  const owner: CartOwner = user ? user.id : await guestCartOf(request);
  const formData = await readForm(request);
  const submission = parseWithSchema(formData, { schema: buyGiftCardSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  // The service parses the form's own values: the amount as typed, not the cents the page's check made of it.
  const input = Object.fromEntries(
    ["amount", "recipientEmail", "recipientName", "message"].map((name) => [
      name,
      formData.get(name) ?? undefined,
    ]),
  );
  const outcome = await submitOrReply(submission, () => addGiftCardToCart(owner, input));
  if (!outcome.ok) return data({ result: outcome.result }, outcome.init);
  const headers = new Headers();
  if (isGuestCart(owner)) headers.append("Set-Cookie", await keepGuestCart(outcome.value.cartId));
  return redirectWithFlash(
    request,
    "/shop/cart",
    { type: "success", message: GIFT_CARD_BUY_TEXT.added },
    { headers },
  );
}

export const meta: MetaFunction = () => [
  { title: "Gift cards · ECommerce Shopping" },
  { name: "description", content: "Send a gift card by email: choose an amount and write a message." },
];

/** The form's fields as posted (the server turns them into the card). */
interface BuyForm {
  amount: string;
  recipientEmail: string;
  recipientName: string;
  message: string;
}

export default function GiftCardsPage() {
  const { amounts, messageMax } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const [form, fields] = useForm<BuyForm>({
    id: "buy-gift-card",
    lastResult: answer?.result,
    shouldValidate: "onSubmit",
  });
  const chosen = String(fields.amount.initialValue ?? "");
  return (
    <div style={{ maxWidth: "34rem", margin: "0 auto", padding: "1.5rem 1rem 3rem" }}>
      <h1 className="page-heading">Gift cards</h1>
      {amounts.length === 0 ? (
        <p role="status">{GIFT_CARD_BUY_TEXT.notSold}.</p>
      ) : (
        <>
          <p>
            Send a gift card by email: the recipient gets its code as soon as your order is paid, and spends
            it at checkout.
          </p>
          <Form
            method="post"
            style={{ display: "flex", flexDirection: "column", gap: "1rem" }}
            {...getFormProps(form)}
          >
            {form.errors?.length ? (
              <p className="form-error" role="alert" id={form.errorId}>
                {form.errors[0]}
              </p>
            ) : null}
            <fieldset
              className="sf-field"
              style={{ border: 0, padding: 0, margin: 0 }}
              aria-describedby={fields.amount.errorId}
            >
              <legend className="sf-field__label">Amount</legend>
              <div style={{ display: "flex", flexWrap: "wrap", gap: "0.75rem" }}>
                {amounts.map((amount, index) => (
                  <label key={amount} className="sf-button" style={{ gap: "0.5rem" }}>
                    <input
                      type="radio"
                      name={fields.amount.name}
                      value={String(amount)}
                      required
                      defaultChecked={chosen ? chosen === String(amount) : index === 0}
                    />
                    ${amount}
                  </label>
                ))}
              </div>
              {fields.amount.errors?.[0] ? (
                <p className="form-error" id={fields.amount.errorId}>
                  {fields.amount.errors[0]}
                </p>
              ) : null}
            </fieldset>
            <PlainField
              field={fields.recipientEmail}
              label="Recipient's email"
              type="email"
              autoComplete="off"
            />
            <PlainField field={fields.recipientName} label="Recipient's name (optional)" maxLength={100} />
            <PlainField field={fields.message} label="Message (optional)" rows={4} maxLength={messageMax} />
            <button type="submit" className="sf-button sf-button--primary sf-button--block">
              Add to cart
            </button>
          </Form>
        </>
      )}
    </div>
  );
}
