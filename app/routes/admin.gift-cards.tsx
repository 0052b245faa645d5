import { Button, Group, Text, TextInput, Title } from "@mantine/core";
import {
  type ActionFunctionArgs,
  Form,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
} from "react-router";
import { AdminRecordsPage, AdminTable, adminPageLinks } from "~/components/admin/AdminRecordsPage";
import { GiftCardFields, giftCardFormValues } from "~/components/admin/GiftCardEditor";
import { badRequest } from "~/lib/server/errors.server";
import { utcText } from "~/lib/shared/admin-form";
import { GIFT_CARD_TEXT, type GiftCardDetailsJson, type GiftCardJson } from "~/lib/shared/gift-cards";
import { formatPrice } from "~/lib/shared/money";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import {
  getGiftCard,
  issueGiftCard,
  listGiftCards,
  updateGiftCard,
} from "~/services/gift-cards/cards.server";
import { openedRecords, recordAction, type AdminRecords, type SentForm } from "~/web/admin-form.server";
import { requireArea } from "~/web/auth.server";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => adminPageLinks;

const PAGE = "/admin/gift-cards";

/** The edit form's one change as the service reads it (the API's PUT body). */
function changeOf(sent: SentForm): Record<string, unknown> {
  const { change, adjust, reason, expiresAt } = sent.texts(["change", "adjust", "reason", "expiresAt"]);
  if (change === "disable") return { disabled: true };
  if (change === "enable") return { disabled: false };
  if (change === "expiry") return { expiresAt: expiresAt ? `${expiresAt}T23:59:59Z` : null };
  return { adjust, reason };
}

const cards: AdminRecords<GiftCardJson> = {
  page: PAGE,
  text: { created: GIFT_CARD_TEXT.issued, updated: GIFT_CARD_TEXT.updated, deleted: GIFT_CARD_TEXT.updated },
  inputOf: (sent) => {
    const texts = sent.texts(["change", "amount", "recipientEmail", "recipientName", "note"]);
    if (texts.change) return changeOf(sent);
    const { change: _change, ...issue } = texts;
    return issue;
  },
  get: getGiftCard,
  create: issueGiftCard,
  update: updateGiftCard,
  remove: () => Promise.reject(badRequest("A gift card is disabled, never deleted")),
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "giftCards");
  const opened = await openedRecords(request, cards);
  const q = new URL(request.url).searchParams.get("q") ?? "";
  return {
    cards: await listGiftCards(q),
    q,
    ...opened,
    editing: opened.editing as GiftCardDetailsJson | null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return recordAction({ request, context }, await requireArea(request, "giftCards"), cards);
}

export const meta: MetaFunction = () => [{ title: "Gift cards · ECommerce Shopping" }];

function Ledger({ card }: { card: GiftCardDetailsJson }) {
  return (
    <div className="admin-card" data-testid="gift-card-ledger">
      <Title order={2} size="h4" mb="xs">
        Ledger of the card ending {card.last4}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Every change of its balance, oldest first; the balance ({formatPrice(card.balance)}) is their sum.
      </Text>
      <AdminTable
        testId="gift-card-ledger-table"
        rows={card.ledger.map((entry, index) => ({ ...entry, _id: String(index) }))}
        empty="No entries."
        columns={[
          { header: "At", cell: (entry) => utcText(entry.at) },
          { header: "Amount", cell: (entry) => formatPrice(entry.amount) },
          { header: "Balance after", cell: (entry) => formatPrice(entry.balanceAfter) },
          { header: "Why", cell: (entry) => entry.reason },
          { header: "By", cell: (entry) => entry.actor },
        ]}
      />
    </div>
  );
}

function cardState(card: GiftCardJson): string {
  if (card.disabled) return "Disabled";
  if (card.expiresAt && new Date(card.expiresAt).getTime() <= Date.now()) return "Expired";
  return card.expiresAt ? `Until ${utcText(card.expiresAt)}` : "Active";
}

export default function AdminGiftCards() {
  const { cards: rows, q, adding, editing } = useLoaderData<typeof loader>();
  return (
    <AdminRecordsPage
      page={PAGE}
      title="Gift cards"
      noun="gift card"
      addLabel="Issue a card"
      intro="Cards are shown by the last four characters of their code: the full code is only in the recipient's mail. A card is never deleted: disable it. Every change is on its ledger and the audit log."
      tableTestId="gift-card-table"
      rows={rows}
      empty={q ? "No card matches." : "No gift cards yet."}
      rowName={(card) => `card ending ${card.last4}`}
      rowTestId={() => "gift-card-row"}
      deletable={false}
      filter={
        <Form method="get" action={PAGE} role="search" className="admin-search">
          <Group gap="xs" mb="sm">
            <TextInput
              name="q"
              type="search"
              defaultValue={q}
              key={q}
              placeholder="Last four characters or recipient's email"
              aria-label="Find gift cards by the last four characters of the code or the recipient's email"
            />
            <Button type="submit" variant="default">
              Find
            </Button>
          </Group>
        </Form>
      }
      columns={[
        { header: "Code", cell: (card) => `…${card.last4}` },
        {
          header: "Balance",
          cell: (card) => `${formatPrice(card.balance)} of ${formatPrice(card.initialAmount)}`,
        },
        {
          header: "Recipient",
          cell: (card) =>
            card.recipientName ? `${card.recipientName} <${card.recipientEmail}>` : card.recipientEmail,
          style: { overflowWrap: "anywhere" },
        },
        { header: "State", cell: cardState },
        { header: "Issued", cell: (card) => utcText(card.createdAt) },
      ]}
      formPrefix="gift-card"
      formValues={giftCardFormValues}
      fields={GiftCardFields}
      adding={adding}
      editing={editing}
    >
      {editing ? <Ledger card={editing} /> : null}
    </AdminRecordsPage>
  );
}
