import { QueryTypes } from "sequelize";
import { expect } from "vitest";
import { getDb } from "../../app/models/db.server";
import { issueGiftCard } from "../../app/services/gift-cards/cards.server";

/** Helpers for the gift card tests: a card and its code as mailed, and a balance checked against its ledger. */

/** The code as the recipient's mail shows it (XXXX-XXXX-XXXX-XXXX): the only place it is written in full. */
export async function mailedCode(recipient: string): Promise<string> {
  const [mail] = await getDb().sequelize.query<{ text: string; html: string; kind: string }>(
    `SELECT text_body AS text, html_body AS html, kind FROM mail_outbox WHERE recipient = $1 ORDER BY created_at`,
    { bind: [recipient], type: QueryTypes.SELECT },
  );
  expect(mail?.kind).toBe("gift-card");
  const code = /Your code: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(mail!.text)?.[1];
  expect(code).toBeDefined();
  expect(mail!.html).toContain(code);
  return code!;
}

let counter = 0;

/** A card of `amount` dollars issued by the shop, and its code. */
export async function issuedCard(amount: number): Promise<{ id: string; code: string; last4: string }> {
  counter += 1;
  const recipientEmail = `card-${counter}-${Date.now()}@example.com`;
  const card = await issueGiftCard({ amount, recipientEmail, note: "test" });
  return { id: card._id, code: await mailedCode(recipientEmail), last4: card.last4 };
}

/** An account's balance, after checking that it is the sum of its ledger, and its entries' kinds in order. */
export async function balanceAndLedger(id: string): Promise<{ balance: number; kinds: string[] }> {
  const [row] = await getDb().sequelize.query<{ balance: string; sum: string; kinds: string[] }>(
    `SELECT a.balance,
            (SELECT COALESCE(sum(amount), 0) FROM stored_value_entries e WHERE e.account_id = a.id) AS sum,
            (SELECT array_agg(kind ORDER BY id) FROM stored_value_entries e WHERE e.account_id = a.id) AS kinds
       FROM stored_value_accounts a WHERE a.id = $1`,
    { bind: [id], type: QueryTypes.SELECT },
  );
  expect(Number(row!.sum)).toBe(Number(row!.balance));
  return { balance: Number(row!.balance), kinds: row!.kinds };
}
