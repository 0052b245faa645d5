import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import type { UploadedFile } from "../../app/services/uploads.server";
import { expect } from "vitest";
import { getDb } from "../../app/models/db.server";
import { createTestUser } from "../support/database";
import { assertMatchesContract } from "../support/contract";
import { BASE_URL, responseOfResult, sessionCookieFor, testRequestContext } from "../support/requests";

/** Helpers for the admin panel's tests: callers, rows, image bytes, multipart requests. */

export interface Callers {
  admin: string;
  shopper: string;
  adminId: string;
  shopperId: string;
  shopperName: string;
}

/** A signed-in admin and a signed-in shopper (their Cookie headers). */
export async function createCallers(): Promise<Callers> {
  const admin = await createTestUser({ role: "admin", userName: "Ada Admin" });
  const shopper = await createTestUser({ userName: "Sam Shopper" });
  return {
    admin: await sessionCookieFor(admin.id),
    shopper: await sessionCookieFor(shopper.id),
    adminId: admin.id,
    shopperId: shopper.id,
    shopperName: shopper.userName,
  };
}

/** The flash message a response sets (its `__flash` cookie), if any. */
export function flashOf(response: Response): { type: string; message: string } | null {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith("__flash="));
  if (!cookie) return null;
  const value = decodeURIComponent(cookie.split(";")[0]!.slice("__flash=".length));
  const payload = JSON.parse(Buffer.from(value.split(".")[0]!, "base64").toString("utf8")) as {
    __flash_flash__?: { type: string; message: string };
  };
  return payload.__flash_flash__ ?? null;
}

type RouteFunction = (args: LoaderFunctionArgs | ActionFunctionArgs) => unknown;

/**
 * Runs a loader or action with `request`; the Response whether returned or
 * thrown. A JSON API answer is checked against the OpenAPI document.
 */
export async function run(
  fn: RouteFunction,
  request: Request,
  params: Record<string, string> = {},
): Promise<Response> {
  const response = await responseOf(fn, request, params);
  await assertMatchesContract(request, response);
  return response;
}

async function responseOf(
  fn: RouteFunction,
  request: Request,
  params: Record<string, string>,
): Promise<Response> {
  try {
    return responseOfResult(
      await fn({ request, params, url: new URL(request.url), pattern: "", context: testRequestContext() }),
    );
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** A multipart POST of `fields` (strings and files), as a browser or `curl -F` sends it. */
export function multipartRequest(
  path: string,
  fields: Record<string, string | File>,
  cookie?: string | null,
  method = "POST",
): Request {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  const headers = new Headers();
  if (cookie) headers.set("Cookie", cookie);
  return new Request(`${BASE_URL}${path}`, { method, body, headers });
}

/** A JSON request (or any body with `contentType`). */
export function jsonRequest(
  path: string,
  options: {
    method?: string;
    json?: unknown;
    body?: string;
    contentType?: string;
    cookie?: string | null;
  } = {},
): Request {
  const headers = new Headers();
  if (options.cookie) headers.set("Cookie", options.cookie);
  let body: string | undefined = options.body;
  if (options.json !== undefined) body = JSON.stringify(options.json);
  if (body !== undefined) headers.set("Content-Type", options.contentType ?? "application/json");
  return new Request(`${BASE_URL}${path}`, {
    method: options.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
}

/** A urlencoded form POST (a page's <Form>). */
export function formRequest(path: string, form: Record<string, string>, cookie?: string | null): Request {
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });
  if (cookie) headers.set("Cookie", cookie);
  return new Request(`${BASE_URL}${path}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(form).toString(),
  });
}

/** Reads a JSON API answer and checks what every answer shares: JSON, `success`, no stack trace. */
export async function readApi(response: Response) {
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at\s/);
  expect(text).not.toContain('"stack"');
  const body = JSON.parse(text) as {
    success: boolean;
    message?: string;
    errors?: Record<string, string[]>;
    data?: unknown;
    result?: { url: string };
    pagination?: { page: number; limit: number; total: number; pages: number };
  };
  expect(typeof body.success).toBe("boolean");
  return body;
}

// --- Image bytes ---------------------------------------------------------------

/** A real 1×1 PNG. */
export const PNG_BYTES = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  ),
);
/** A real 1×1 GIF. */
export const GIF_BYTES = Uint8Array.from(
  Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64"),
);
/** A real 1×1 JPEG (the upload pipeline decodes every image). */
export const JPEG_BYTES = Uint8Array.from(
  Buffer.from(
    "/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABQf/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCWAAqu/9k=",
    "base64",
  ),
);
/** A RIFF/WEBP header with an empty VP8L chunk. */
export const WEBP_BYTES = Uint8Array.from([
  ...Buffer.from("RIFF"),
  0x1a,
  0,
  0,
  0,
  ...Buffer.from("WEBPVP8L"),
  0x0d,
  0,
  0,
  0,
  0x2f,
  0,
  0,
  0,
  0x10,
  0x07,
  0x10,
  0x11,
  0x11,
  0x88,
  0x88,
  0xfe,
  0x07,
  0x00,
]);

/** A 1×1 24-bit BMP (BITMAPINFOHEADER). */
export function bmpBytes(): Uint8Array {
  const buffer = Buffer.alloc(58);
  buffer.write("BM", 0, "ascii");
  buffer.writeUInt32LE(58, 2);
  buffer.writeUInt32LE(54, 10);
  buffer.writeUInt32LE(40, 14);
  buffer.writeInt32LE(1, 18);
  buffer.writeInt32LE(1, 22);
  buffer.writeUInt16LE(1, 26);
  buffer.writeUInt16LE(24, 28);
  buffer.writeUInt32LE(4, 34);
  return Uint8Array.from(buffer);
}

export const SVG_WITH_SCRIPT = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert('onload')">
  <script>alert('script')</script>
  <rect width="10" height="10" fill="red" onclick="alert('click')"/>
  <a href="javascript:alert('link')"><text y="8">x</text></a>
  <foreignObject width="10" height="10"><iframe src="https://example.com"></iframe></foreignObject>
</svg>`;

export function file(bytes: Uint8Array | string, name: string, type: string): File {
  return new File([typeof bytes === "string" ? bytes : Buffer.from(bytes)], name, { type });
}

/** A file as the web layer hands it to the services, parsed from the form. */
export function uploaded(bytes: Uint8Array | string, name: string, type: string): UploadedFile {
  return { name, type, bytes: typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes };
}

// --- Rows ----------------------------------------------------------------------

let productCounter = 0;

export async function createProductRow(
  overrides: Partial<{
    title: string;
    image: string;
    price: string;
    salePrice: string | null;
    totalStock: number;
    category: "men" | "women" | "kids" | "accessories" | "footwear";
    createdAt: Date;
  }> = {},
) {
  productCounter += 1;
  const product = await getDb().models.Product.create({
    image: overrides.image ?? "/images/products/test.svg",
    title: overrides.title ?? `Test Product ${productCounter}`,
    description: "A product for tests",
    category: overrides.category ?? "men",
    brand: "nike",
    price: overrides.price ?? "50.00",
    salePrice: overrides.salePrice ?? null,
    totalStock: overrides.totalStock ?? 10,
    ...(overrides.createdAt ? { createdAt: overrides.createdAt } : {}),
  });
  return product.get({ plain: true });
}

export const TEST_ADDRESS = {
  addressId: null,
  address: "1 Test Road",
  city: "Testville",
  pincode: "12345",
  phone: "555-0100",
  notes: "Ring twice",
};

export async function createOrderRow(options: {
  userId: string;
  status?: "pending" | "confirmed" | "inProcess" | "inShipping" | "delivered" | "rejected";
  /** Only a paid order may move to inProcess, inShipping or delivered. */
  paymentStatus?: "pending" | "paid" | "failed" | "refunded";
  orderDate?: Date;
  items?: { productId: string | null; title: string; image?: string; price: string; quantity: number }[];
}) {
  const { Order, OrderItem } = getDb().models;
  const items = options.items ?? [{ productId: null, title: "Loose item", price: "10.00", quantity: 1 }];
  const cents = items.reduce((sum, item) => sum + Math.round(Number(item.price) * 100) * item.quantity, 0);
  const order = await Order.create({
    userId: options.userId,
    cartId: null,
    addressInfo: TEST_ADDRESS,
    orderStatus: options.status ?? "pending",
    paymentStatus: options.paymentStatus ?? "pending",
    totalAmount: (cents / 100).toFixed(2),
    orderDate: options.orderDate ?? new Date(),
    orderUpdateDate: options.orderDate ?? new Date(),
    paymentId: null,
    payerId: null,
  });
  await OrderItem.bulkCreate(
    items.map((item) => ({
      orderId: order.id,
      productId: item.productId,
      title: item.title,
      image: item.image ?? "/images/products/test.svg",
      price: item.price,
      quantity: item.quantity,
    })),
  );
  return order.get({ plain: true });
}
