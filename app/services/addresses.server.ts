import { QueryTypes, Transaction } from "sequelize";
import {
  addressInputSchema,
  MAX_ADDRESSES,
  MAX_ADDRESSES_MESSAGE,
  type AddressInput,
} from "~/lib/shared/address-schema";
import { getDb } from "~/models/db.server";
import { badRequest, conflict, notFound, unauthorized } from "~/lib/server/errors.server";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isUuid } from "~/lib/shared/uuid";
import { getConfig } from "~/lib/server/config.server";
import { destinationOf } from "~/lib/server/regions.server";
import { parseDestinationFields, type Destination } from "./address-destination.server";

/**
 * A shopper's delivery addresses (SPEC §2 Address manager, §5, §9; API.md
 * Addresses). Every function takes the session user's id: an address of
 * somebody else answers 404 exactly like an unknown or malformed id.
 */

export const ADDRESS_ADDED = "Address added successfully";
export const ADDRESS_UPDATED = "Address updated successfully";
export const ADDRESS_DELETED = "Address deleted successfully";
export const ADDRESS_NOT_FOUND = "Address not found";
export const ADDRESS_INVALID = "Please fill in every address field";

export interface AddressJson {
  _id: string;
  userId: string;
  address: string;
  city: string;
  pincode: string;
  phone: string;
  notes: string;
  /** ISO 3166-1 alpha-2; the shop's country when the address named none. */
  country: string;
  /** The state, province or county code; for the US derived from the ZIP code when left out. */
  region: string | null;
}

const ATTRIBUTES = [
  "id",
  "userId",
  "address",
  "city",
  "pincode",
  "phone",
  "notes",
  "country",
  "region",
] as const;
const RETURNING = `id, user_id AS "userId", address, city, pincode, phone, notes, country, region`;

interface AddressRow {
  id: string;
  userId: string;
  address: string;
  city: string;
  pincode: string;
  phone: string;
  notes: string;
  country: string | null;
  region: string | null;
}

function toJson(row: AddressRow): AddressJson {
  return {
    _id: row.id,
    userId: row.userId,
    address: row.address,
    city: row.city,
    pincode: row.pincode,
    phone: row.phone,
    notes: row.notes,
    ...destinationOf(row, getConfig().shopCountry),
  };
}

/**
 * The five fields, trimmed, and the destination (country and region, derived
 * when left out: `kept`, an edited address's own, else the shop's country);
 * 400 with `errors` per field otherwise. Other keys are ignored.
 */
export function parseAddressInput(input: unknown, kept?: Destination): AddressInput & Destination {
  const parsed = addressInputSchema.safeParse(input ?? {});
  const destination = parseDestinationFields(input, parsed.success ? parsed.data.pincode : "", kept);
  if (!parsed.success || !destination.ok) {
    const errors = {
      ...(parsed.success ? {} : fieldErrorsOf(parsed.error)),
      ...(destination.ok ? {} : destination.errors),
    };
    const message =
      parsed.success && !destination.ok ? Object.values(destination.errors)[0]![0]! : ADDRESS_INVALID;
    throw badRequest(message, errors);
  }
  return { ...parsed.data, ...destination.value };
}

/** The user's addresses, oldest first (the order in which they were added). */
export async function listAddresses(userId: string): Promise<AddressJson[]> {
  if (!isUuid(userId)) return [];
  const rows = await getDb().models.Address.findAll({
    where: { userId },
    attributes: [...ATTRIBUTES],
    order: [
      ["createdAt", "ASC"],
      ["id", "ASC"],
    ],
    raw: true,
  });
  return (rows as unknown as AddressRow[]).map(toJson);
}

/** One of the user's addresses; 404 for anybody else's, an unknown or a malformed id. */
export async function getAddress(
  userId: string,
  addressId: unknown,
  transaction?: Transaction,
): Promise<AddressJson> {
  if (!isUuid(userId) || !isUuid(addressId)) throw notFound(ADDRESS_NOT_FOUND);
  const row = await getDb().models.Address.findOne({
    where: { id: addressId, userId },
    attributes: [...ATTRIBUTES],
    raw: true,
    // Inside the caller's transaction (the checkout): never a second pooled connection.
    transaction,
  });
  if (!row) throw notFound(ADDRESS_NOT_FOUND);
  return toJson(row as unknown as AddressRow);
}

/**
 * Adds an address: at most MAX_ADDRESSES per user (409). Concurrent adds for
 * one user take turns on a lock of the user's row, so that two requests can
 * never both see two addresses and both add a third.
 */
export async function addAddress(userId: string, input: unknown): Promise<AddressJson> {
  const values = parseAddressInput(input);
  if (!isUuid(userId)) throw unauthorized();
  const { sequelize, models } = getDb();
  return sequelize.transaction({ isolationLevel: Transaction.ISOLATION_LEVELS.READ_COMMITTED }, async (t) => {
    const locked = await sequelize.query("SELECT id FROM users WHERE id = :userId FOR UPDATE", {
      replacements: { userId },
      type: QueryTypes.SELECT,
      transaction: t,
    });
    if (locked.length === 0) throw unauthorized();
    const count = await models.Address.count({ where: { userId }, transaction: t });
    if (count >= MAX_ADDRESSES) throw conflict(MAX_ADDRESSES_MESSAGE);
    // Stamped by PostgreSQL when the row is written, after the lock (microseconds; a JavaScript Date has
    // milliseconds, and tied addresses would be listed in the order of their random ids).
    const [row] = await sequelize.query<AddressRow>(
      `INSERT INTO addresses (user_id, address, city, pincode, phone, notes, country, region, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, clock_timestamp(), clock_timestamp())
       RETURNING ${RETURNING}`,
      {
        bind: [
          userId,
          values.address,
          values.city,
          values.pincode,
          values.phone,
          values.notes,
          values.country,
          values.region,
        ],
        type: QueryTypes.SELECT,
        transaction: t,
      },
    );
    return toJson(row!);
  });
}

/** Replaces the five fields and the destination of one of the user's addresses (404 for anybody else's). */
export async function updateAddress(
  userId: string,
  addressId: unknown,
  input: unknown,
): Promise<AddressJson> {
  if (!isUuid(userId) || !isUuid(addressId)) throw notFound(ADDRESS_NOT_FOUND);
  // A client that never sends a destination (the spec's) keeps the country the address has.
  const current = await getAddress(userId, addressId);
  const values = parseAddressInput(input, { country: current.country, region: current.region });
  const [count, rows] = await getDb().models.Address.update(values, {
    where: { id: addressId, userId },
    returning: true,
  });
  const row = rows[0];
  if (count === 0 || !row) throw notFound(ADDRESS_NOT_FOUND);
  return toJson(row.get({ plain: true }) as AddressRow);
}

/** Deletes one of the user's addresses (404 for anybody else's); returns what was deleted. */
export async function deleteAddress(userId: string, addressId: unknown): Promise<AddressJson> {
  if (!isUuid(userId) || !isUuid(addressId)) throw notFound(ADDRESS_NOT_FOUND);
  const rows = await getDb().sequelize.query<AddressRow>(
    `DELETE FROM addresses WHERE id = :addressId AND user_id = :userId
     RETURNING ${RETURNING}`,
    { replacements: { addressId, userId }, type: QueryTypes.SELECT },
  );
  const row = rows[0];
  if (!row) throw notFound(ADDRESS_NOT_FOUND);
  return toJson(row);
}
