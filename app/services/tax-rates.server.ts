import { QueryTypes, type Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import { badRequest, notFound } from "~/lib/server/errors.server";
import { isCountryCode, isRegionCode } from "~/lib/server/regions.server";
import { centsToNumber } from "~/lib/shared/money";
import { rateToPercent, type StoredTaxRate, type TaxDestination, type TaxRule } from "~/lib/shared/order-tax";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { taxRateInputSchema, type TaxRateInput, type TaxRateJson } from "~/lib/shared/tax-schemas";
import { isUuid } from "~/lib/shared/uuid";
import { DESTINATION_TEXT } from "./address-destination.server";
import {
  changedFields,
  expectedVersionOf,
  recordAudit,
  refuseStaleVersion,
  SYSTEM_CHANGE,
  type AuditBy,
} from "./audit.server";

/**
 * The shop's tax rates (API.md, "Sales tax and VAT"): the admin's list, each
 * change on record (audit), and the rates an order's destination takes, read
 * on the order's own transaction (one statement: one consistent set of rates
 * per order, whatever an admin changes meanwhile).
 */

export const TAX_RATE_TEXT = {
  notFound: "Tax rate not found",
  created: "Tax rate added",
  updated: "Tax rate updated",
  deleted: "Tax rate deleted",
};

interface TaxRateRow {
  id: string;
  name: string;
  country: string;
  region: string | null;
  rateMillionths: number;
  appliesTo: string[];
  exemptBelowCents: number | null;
  example: boolean;
  version: number;
}

const COLUMNS = `id, name, country, region, rate_millionths AS "rateMillionths", applies_to AS "appliesTo",
  exempt_below_cents AS "exemptBelowCents", example, version`;

/** The list's order, which is also the order an order lists its rates in: country, whole country first, name. */
const ORDER_BY = `country, region NULLS FIRST, name COLLATE "C", id`;

function toJson(row: TaxRateRow): TaxRateJson {
  return {
    _id: row.id,
    name: row.name,
    country: row.country,
    region: row.region,
    rate: rateToPercent(row.rateMillionths),
    appliesTo: row.appliesTo,
    exemptBelow: row.exemptBelowCents === null ? null : centsToNumber(row.exemptBelowCents),
    example: row.example,
    version: row.version,
  };
}

function toRule(row: TaxRateRow): StoredTaxRate {
  return {
    id: row.id,
    name: row.name,
    country: row.country,
    region: row.region,
    rateMillionths: row.rateMillionths,
    appliesTo: row.appliesTo,
    exemptBelowCents: row.exemptBelowCents,
  };
}

export async function listTaxRates(): Promise<TaxRateJson[]> {
  const rows = await getDb().sequelize.query<TaxRateRow>(
    `SELECT ${COLUMNS} FROM tax_rates ORDER BY ${ORDER_BY}`,
    {
      type: QueryTypes.SELECT,
    },
  );
  return rows.map(toJson);
}

async function readRate(id: string, transaction?: Transaction, lock = false): Promise<TaxRateRow | null> {
  const [row] = await getDb().sequelize.query<TaxRateRow>(
    `SELECT ${COLUMNS} FROM tax_rates WHERE id = :id${lock ? " FOR UPDATE" : ""}`,
    { replacements: { id }, type: QueryTypes.SELECT, transaction },
  );
  return row ?? null;
}

export async function getTaxRate(id: unknown): Promise<TaxRateJson> {
  const row = isUuid(id) ? await readRate(id) : null;
  if (!row) throw notFound(TAX_RATE_TEXT.notFound);
  return toJson(row);
}

/**
 * The rates that tax `destination`, in the list's order, read on `transaction`
 * in one statement (a consistent set even while an admin changes rates).
 */
export async function taxRulesFor(
  destination: TaxDestination,
  transaction?: Transaction,
): Promise<TaxRule[]> {
  const rows = await getDb().sequelize.query<TaxRateRow>(
    `SELECT ${COLUMNS} FROM tax_rates
      WHERE country = :country AND (region IS NULL OR region = :region)
      ORDER BY ${ORDER_BY}`,
    {
      replacements: { country: destination.country, region: destination.region ?? "" },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return rows.map(toRule);
}

function parseInput(input: unknown): TaxRateInput {
  const parsed = taxRateInputSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    throw badRequest(Object.values(errors).flat()[0] ?? "Invalid tax rate", errors);
  }
  const value = parsed.data;
  if (!isCountryCode(value.country)) {
    throw badRequest(DESTINATION_TEXT.unknownCountry, { country: [DESTINATION_TEXT.unknownCountry] });
  }
  if (value.region && !isRegionCode(value.country, value.region)) {
    const message = DESTINATION_TEXT.unknownRegion(value.country);
    throw badRequest(message, { region: [message] });
  }
  return value;
}

/** What a rate's audit entry compares: what the admin sets. */
const AUDITED_FIELDS = ["name", "country", "region", "rate", "appliesTo", "exemptBelow"] as const;

function replacementsOf(values: TaxRateInput) {
  return {
    name: values.name,
    country: values.country,
    region: values.region ?? null,
    rate: values.rate,
    appliesTo: values.appliesTo,
    exemptBelow: values.exemptBelow ?? null,
  };
}

/** Adds a rate (on record in the audit log). 400 with the field's message for bad input or an unknown code. */
export async function createTaxRate(input: unknown, by: AuditBy = SYSTEM_CHANGE): Promise<TaxRateJson> {
  const values = parseInput(input);
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const [row] = await sequelize.query<TaxRateRow>(
      `INSERT INTO tax_rates (name, country, region, rate_millionths, applies_to, exempt_below_cents)
       VALUES (:name, :country, :region, :rate, ARRAY[:appliesTo]::text[], :exemptBelow)
       RETURNING ${COLUMNS}`,
      { replacements: replacementsOf(values), type: QueryTypes.SELECT, transaction },
    );
    const rate = toJson(row!);
    await recordAudit(transaction, {
      ...by,
      action: "create",
      entity: "taxRate",
      entityId: rate._id,
      changes: changedFields(null, rate, AUDITED_FIELDS),
    });
    return rate;
  });
}

/**
 * Changes a rate: the fields sent replace the stored ones (`version`, when
 * sent, must be the stored one: 409 otherwise). Orders keep the tax they were
 * made with; orders created from now on take the new rate.
 */
export async function updateTaxRate(
  id: unknown,
  input: unknown,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<TaxRateJson> {
  if (!isUuid(id)) throw notFound(TAX_RATE_TEXT.notFound);
  const patch = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const current = await readRate(id, transaction, true);
    if (!current) throw notFound(TAX_RATE_TEXT.notFound);
    refuseStaleVersion(expectedVersionOf(patch), current.version);
    const before = toJson(current);
    const values = parseInput({ ...before, ...patch });
    const [row] = await sequelize.query<TaxRateRow>(
      `UPDATE tax_rates SET name = :name, country = :country, region = :region, rate_millionths = :rate,
              applies_to = ARRAY[:appliesTo]::text[], exempt_below_cents = :exemptBelow,
              version = version + 1, updated_at = now()
        WHERE id = :id RETURNING ${COLUMNS}`,
      { replacements: { ...replacementsOf(values), id }, type: QueryTypes.SELECT, transaction },
    );
    const rate = toJson(row!);
    const changes = changedFields(before, rate, AUDITED_FIELDS);
    if (Object.keys(changes).length) {
      await recordAudit(transaction, {
        ...by,
        action: "update",
        entity: "taxRate",
        entityId: rate._id,
        changes,
      });
    }
    return rate;
  });
}

/**
 * Deletes a rate. Orders made with it keep their tax. `version`, when given
 * (the admin page's Delete sends the one it showed), must be the stored one: 409 otherwise.
 */
export async function deleteTaxRate(
  id: unknown,
  by: AuditBy = SYSTEM_CHANGE,
  version?: unknown,
): Promise<void> {
  if (!isUuid(id)) throw notFound(TAX_RATE_TEXT.notFound);
  const expected = expectedVersionOf({ version });
  const { sequelize } = getDb();
  await sequelize.transaction(async (transaction) => {
    const current = await readRate(id, transaction, true);
    if (!current) throw notFound(TAX_RATE_TEXT.notFound);
    refuseStaleVersion(expected, current.version);
    await sequelize.query(`DELETE FROM tax_rates WHERE id = :id`, { replacements: { id }, transaction });
    await recordAudit(transaction, {
      ...by,
      action: "delete",
      entity: "taxRate",
      entityId: current.id,
      changes: changedFields(toJson(current), null, AUDITED_FIELDS),
    });
  });
}
