import { QueryTypes, type Transaction } from "sequelize";
import { z } from "zod";
import { badRequest } from "~/lib/server/errors.server";
import {
  CONSENT_SOURCES,
  MARKETING_TEXT,
  marketingConsentSchema,
  type ConsentSource,
  type MarketingConsentJson,
} from "~/lib/shared/abandoned-carts";
import { emailField, fieldErrorsOf } from "~/lib/shared/schemas";
import { isUuid } from "~/lib/shared/uuid";
import { getDb } from "~/models/db.server";

/**
 * Marketing consent (API.md, "Abandoned-cart mails"; migration 0047): an account's, by its id, or a guest's,
 * by the email given at checkout (with the cart it came with). Every change is a new row with its time and
 * source; nothing is ever updated, so the newest row is the consent in force, and none means no consent.
 */

/** Whose consent: an account, or a guest's email (and the guest cart the consent came with, if any). */
export type ConsentHolder = { userId: string } | { email: string; cartId?: string | null };

interface ConsentRow {
  consent: boolean;
  source: ConsentSource;
  createdAt: Date | string;
}

/** The newest consent row of an account (`m.user_id = :userId`) or of a guest's email, as SQL. */
export const CURRENT_CONSENT_SQL = {
  ofUser: (userId: string) =>
    `(SELECT m.consent FROM marketing_consents m WHERE m.user_id = ${userId} ORDER BY m.id DESC LIMIT 1)`,
  ofGuestEmail: (email: string) =>
    `(SELECT m.consent FROM marketing_consents m WHERE m.user_id IS NULL AND m.email = ${email}
       ORDER BY m.id DESC LIMIT 1)`,
};

const holderSchema = z.union([
  z.object({ userId: z.string().refine(isUuid, "userId must be an id") }),
  z.object({ email: emailField, cartId: z.string().refine(isUuid).nullish() }),
]);

function holderOf(holder: unknown): ConsentHolder {
  const parsed = holderSchema.safeParse(holder);
  if (!parsed.success)
    throw badRequest("A consent needs an account or a valid email", fieldErrorsOf(parsed.error));
  return parsed.data;
}

async function currentRow(holder: ConsentHolder, transaction?: Transaction): Promise<ConsentRow | undefined> {
  const byUser = "userId" in holder;
  const [row] = await getDb().sequelize.query<ConsentRow>(
    `SELECT consent, source, created_at AS "createdAt" FROM marketing_consents
      WHERE ${byUser ? "user_id = :key" : "user_id IS NULL AND email = :key"}
      ORDER BY id DESC LIMIT 1`,
    { replacements: { key: byUser ? holder.userId : holder.email }, type: QueryTypes.SELECT, transaction },
  );
  return row;
}

function toJson(row: ConsentRow | undefined): MarketingConsentJson {
  return row
    ? { consent: row.consent, changedAt: new Date(row.createdAt).toISOString(), source: row.source }
    : { consent: false, changedAt: null, source: null };
}

/** The consent in force: false, never asked, until somebody gives it. */
export async function getMarketingConsent(holder: ConsentHolder): Promise<MarketingConsentJson> {
  return toJson(await currentRow(holderOf(holder)));
}

/**
 * Records `consent` for `holder` as given at `source` (checkout's create calls it in its own transaction
 * with the guest's email and cart, or the shopper's id). Only a change is a new row: the same answer given
 * again keeps the time it was first given. Answers the consent in force afterwards.
 */
export async function recordMarketingConsent(
  holder: ConsentHolder,
  consent: boolean,
  source: ConsentSource,
  transaction?: Transaction,
): Promise<MarketingConsentJson> {
  const who = holderOf(holder);
  if (typeof consent !== "boolean") throw badRequest(MARKETING_TEXT.consentInvalid);
  if (!CONSENT_SOURCES.includes(source))
    throw badRequest(`source must be one of ${CONSENT_SOURCES.join(", ")}`);
  const { sequelize } = getDb();
  const write = async (tx: Transaction) => {
    // Two changes of one holder at once take turns, so "only a change" compares with the newest row.
    const key = "userId" in who ? who.userId : `guest:${who.email}`;
    await sequelize.query(`SELECT pg_advisory_xact_lock(hashtext('marketing-consent'), hashtext(:key))`, {
      replacements: { key },
      transaction: tx,
    });
    const current = await currentRow(who, tx);
    if ((current?.consent ?? false) === consent) return toJson(current);
    const [row] = await sequelize.query<ConsentRow>(
      `INSERT INTO marketing_consents (user_id, email, cart_id, consent, source)
       VALUES (:userId, :email, :cartId, :consent, :source)
       RETURNING consent, source, created_at AS "createdAt"`,
      {
        replacements: {
          userId: "userId" in who ? who.userId : null,
          email: "email" in who ? who.email : null,
          cartId: "email" in who ? (who.cartId ?? null) : null,
          consent,
          source,
        },
        type: QueryTypes.SELECT,
        transaction: tx,
      },
    );
    return toJson(row);
  };
  return transaction ? write(transaction) : sequelize.transaction(write);
}

/** The account page's and the API's change: `{ consent }` parsed here, so both refuse alike. */
export async function setAccountMarketingConsent(
  userId: string,
  input: unknown,
  source: Extract<ConsentSource, "account" | "api">,
): Promise<MarketingConsentJson> {
  const parsed = marketingConsentSchema.safeParse(input);
  if (!parsed.success) throw badRequest(MARKETING_TEXT.consentInvalid, fieldErrorsOf(parsed.error));
  return recordMarketingConsent({ userId }, parsed.data.consent, source);
}
