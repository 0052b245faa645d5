import { delay, http, HttpResponse, type HttpHandler } from "msw";

/**
 * msw handlers that stand in for PayPal's REST API (sandbox host): the OAuth
 * token, Orders v2 create / show / capture, and capture refunds. The default
 * handlers behave like a payer who approved; the scenario handlers (for
 * `server.use(...)`) answer a capture as declined, pending, already captured,
 * not approved, 5xx or too slow. Every request is recorded with its headers
 * and JSON body so that tests can check what the adapter sent.
 */

const PAYPAL_API = "https://api-m.sandbox.paypal.com";
export const PAYPAL_WEB = "https://www.sandbox.paypal.com";
export const MOCK_ACCESS_TOKEN = "A21AAmock-access-token";
export const MOCK_PAYER_ID = "QYR5Z8XDVJNXQ";

interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

interface MockOrder {
  id: string;
  body: {
    intent: string;
    purchase_units: {
      reference_id?: string;
      custom_id?: string;
      amount: { currency_code: string; value: string; breakdown?: unknown };
      items?: unknown[];
    }[];
  };
  capture: { id: string; status: string; value: string; currency: string } | null;
  refunds: { id: string; value: string }[];
}

function paypalError(status: number, name: string, issue: string, extra: Record<string, unknown> = {}) {
  return HttpResponse.json(
    {
      name,
      message:
        "The requested action could not be performed, semantically incorrect, or failed business validation.",
      debug_id: "f1a2b3c4d5e6f",
      details: [{ issue, description: `${issue} (mock)` }],
      links: [
        {
          href: `https://developer.paypal.com/api/rest/reference/orders/v2/errors/#${issue}`,
          rel: "information_link",
          method: "GET",
        },
      ],
      ...extra,
    },
    { status },
  );
}

type Money = { currency_code?: string; value?: string } | undefined;
const centsOf = (money: Money) => Math.round(Number(money?.value ?? "0") * 100);

/**
 * PayPal's own check of a purchase unit's amount: the items add up to
 * `breakdown.item_total` (ITEM_TOTAL_MISMATCH), their taxes to `tax_total`
 * when they carry one (TAX_TOTAL_MISMATCH), and `value` is item_total +
 * shipping + handling + tax_total + insurance − discount − shipping_discount
 * (AMOUNT_MISMATCH), both answered 422 UNPROCESSABLE_ENTITY. Null when it adds up.
 */
function breakdownIssue(unit: MockOrder["body"]["purchase_units"][number]): string | null {
  const breakdown = unit.amount.breakdown as Record<string, Money> | undefined;
  if (!breakdown) return null;
  const items = (unit.items ?? []) as { unit_amount?: Money; tax?: Money; quantity?: string }[];
  if (items.length) {
    const sum = items.reduce(
      (total, item) => total + centsOf(item.unit_amount) * Number(item.quantity ?? 1),
      0,
    );
    if (sum !== centsOf(breakdown.item_total)) return "ITEM_TOTAL_MISMATCH";
    // Items that carry a tax: tax_total is Σ tax × quantity (TAX_TOTAL_MISMATCH).
    if (items.some((item) => item.tax)) {
      const tax = items.reduce((total, item) => total + centsOf(item.tax) * Number(item.quantity ?? 1), 0);
      if (tax !== centsOf(breakdown.tax_total)) return "TAX_TOTAL_MISMATCH";
    }
  }
  const added = ["item_total", "shipping", "handling", "tax_total", "insurance"].reduce(
    (total, part) => total + centsOf(breakdown[part]),
    0,
  );
  const taken = centsOf(breakdown.discount) + centsOf(breakdown.shipping_discount);
  return added - taken === centsOf(unit.amount) ? null : "AMOUNT_MISMATCH";
}

export function createPayPalMock() {
  const requests: RecordedRequest[] = [];
  const orders = new Map<string, MockOrder>();
  let sequence = 0;
  const nextId = (prefix: string) => `${prefix}${String(++sequence).padStart(10, "0")}`;

  async function record(request: Request): Promise<RecordedRequest> {
    const text = await request.clone().text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // form bodies (the OAuth token request) stay text
    }
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    const entry = { method: request.method, path: new URL(request.url).pathname, headers, body };
    requests.push(entry);
    return entry;
  }

  function orderOf(id: string): MockOrder | undefined {
    return orders.get(id);
  }

  /** The Orders v2 representation of an order (what `return=representation` and GET answer). */
  function representation(order: MockOrder) {
    const unit = order.body.purchase_units[0]!;
    const captured = order.capture;
    return {
      id: order.id,
      intent: order.body.intent,
      status: captured ? "COMPLETED" : "APPROVED",
      payment_source: {
        paypal: { email_address: "payer@example.com", account_id: MOCK_PAYER_ID, account_status: "VERIFIED" },
      },
      purchase_units: [
        {
          reference_id: unit.reference_id,
          custom_id: unit.custom_id,
          amount: unit.amount,
          items: unit.items,
          ...(captured
            ? {
                payments: {
                  captures: [
                    {
                      id: captured.id,
                      status: captured.status,
                      amount: { currency_code: captured.currency, value: captured.value },
                      final_capture: true,
                      create_time: "2026-01-01T10:00:00Z",
                      update_time: "2026-01-01T10:00:00Z",
                    },
                  ],
                  ...(order.refunds.length
                    ? {
                        refunds: order.refunds.map((refund) => ({
                          id: refund.id,
                          status: "COMPLETED",
                          amount: { currency_code: captured.currency, value: refund.value },
                        })),
                      }
                    : {}),
                },
              }
            : {}),
        },
      ],
      payer: { email_address: "payer@example.com", payer_id: MOCK_PAYER_ID },
      links: [
        { href: `${PAYPAL_API}/v2/checkout/orders/${order.id}`, rel: "self", method: "GET" },
        ...(captured
          ? []
          : [{ href: `${PAYPAL_WEB}/checkoutnow?token=${order.id}`, rel: "payer-action", method: "GET" }]),
      ],
    };
  }

  /** Captures the order (once) with `status`, for `value` (default: the order amount). */
  function capture(order: MockOrder, status: string, value?: string) {
    const unit = order.body.purchase_units[0]!;
    order.capture ??= {
      id: nextId("CAP"),
      status,
      value: value ?? unit.amount.value,
      currency: unit.amount.currency_code,
    };
    return order.capture;
  }

  const captureUrl = `${PAYPAL_API}/v2/checkout/orders/:id/capture`;

  const handlers: HttpHandler[] = [
    http.post(`${PAYPAL_API}/v1/oauth2/token`, async ({ request }) => {
      await record(request);
      return HttpResponse.json({
        scope: "https://uri.paypal.com/services/payments/payment",
        access_token: MOCK_ACCESS_TOKEN,
        token_type: "Bearer",
        app_id: "APP-80W284485P519543T",
        expires_in: 32400,
        nonce: "2026-01-01T10:00:00Zmock",
      });
    }),

    http.post(`${PAYPAL_API}/v2/checkout/orders`, async ({ request }) => {
      const entry = await record(request);
      const unit = (entry.body as MockOrder["body"]).purchase_units?.[0];
      const issue = unit ? breakdownIssue(unit) : null;
      if (issue) return paypalError(422, "UNPROCESSABLE_ENTITY", issue);
      const requestId = entry.headers["paypal-request-id"];
      // PayPal-Request-Id: the same key answers with the same order.
      const existing = [...orders.values()].find(
        (order) => (order as MockOrder & { requestId?: string }).requestId === requestId,
      );
      const order: MockOrder & { requestId?: string } = existing ?? {
        id: nextId("5O190127TN"),
        body: entry.body as MockOrder["body"],
        capture: null,
        refunds: [],
        requestId,
      };
      orders.set(order.id, order);
      return HttpResponse.json(
        {
          id: order.id,
          status: "PAYER_ACTION_REQUIRED",
          payment_source: { paypal: {} },
          links: [
            { href: `${PAYPAL_API}/v2/checkout/orders/${order.id}`, rel: "self", method: "GET" },
            { href: `${PAYPAL_WEB}/checkoutnow?token=${order.id}`, rel: "payer-action", method: "GET" },
          ],
        },
        { status: existing ? 200 : 201 },
      );
    }),

    http.get(`${PAYPAL_API}/v2/checkout/orders/:id`, async ({ request, params }) => {
      await record(request);
      const order = orderOf(String(params.id));
      if (!order) return paypalError(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID");
      return HttpResponse.json(representation(order));
    }),

    http.post(captureUrl, async ({ request, params }) => {
      await record(request);
      const order = orderOf(String(params.id));
      if (!order) return paypalError(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID");
      if (order.capture) return paypalError(422, "UNPROCESSABLE_ENTITY", "ORDER_ALREADY_CAPTURED");
      capture(order, "COMPLETED");
      return HttpResponse.json(representation(order), { status: 201 });
    }),

    http.post(`${PAYPAL_API}/v2/payments/captures/:captureId/refund`, async ({ request, params }) => {
      const entry = await record(request);
      const order = [...orders.values()].find((candidate) => candidate.capture?.id === params.captureId);
      if (!order?.capture) return paypalError(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID");
      const value =
        (entry.body as { amount?: { value?: string } } | null)?.amount?.value ?? order.capture.value;
      const refund = { id: nextId("REF"), value };
      order.refunds.push(refund);
      return HttpResponse.json(
        {
          id: refund.id,
          status: "COMPLETED",
          amount: { currency_code: order.capture.currency, value },
          links: [{ href: `${PAYPAL_API}/v2/payments/refunds/${refund.id}`, rel: "self", method: "GET" }],
        },
        { status: 201 },
      );
    }),
  ];

  /** Scenario handlers: prepend with `server.use(...)`. */
  const scenarios = {
    /** The payer's card is declined at capture (422 INSTRUMENT_DECLINED), with the redirect link to choose again. */
    captureDeclined: () =>
      http.post(captureUrl, async ({ request, params }) => {
        await record(request);
        return paypalError(422, "UNPROCESSABLE_ENTITY", "INSTRUMENT_DECLINED", {
          links: [
            { href: `${PAYPAL_WEB}/checkoutnow?token=${String(params.id)}`, rel: "redirect", method: "GET" },
            {
              href: "https://developer.paypal.com/api/rest/reference/orders/v2/errors/#INSTRUMENT_DECLINED",
              rel: "information_link",
              method: "GET",
            },
          ],
        });
      }),

    /** The capture is created but held for review (201, capture status PENDING). */
    capturePending: () =>
      http.post(captureUrl, async ({ request, params }) => {
        await record(request);
        const order = orderOf(String(params.id))!;
        capture(order, "PENDING");
        return HttpResponse.json(representation(order), { status: 201 });
      }),

    /** The capture is refused after the fact (201, capture status DECLINED). */
    captureStatusDeclined: () =>
      http.post(captureUrl, async ({ request, params }) => {
        await record(request);
        const order = orderOf(String(params.id))!;
        capture(order, "DECLINED");
        return HttpResponse.json(representation(order), { status: 201 });
      }),

    /** PayPal captured another amount than the order's. */
    captureOtherAmount: (value: string) =>
      http.post(captureUrl, async ({ request, params }) => {
        await record(request);
        const order = orderOf(String(params.id))!;
        capture(order, "COMPLETED", value);
        return HttpResponse.json(representation(order), { status: 201 });
      }),

    /**
     * The order was captured before (another tab, a retry after a lost answer):
     * the capture answers 422 ORDER_ALREADY_CAPTURED and GET shows that capture.
     */
    alreadyCaptured: () =>
      http.post(captureUrl, async ({ request, params }) => {
        await record(request);
        const order = orderOf(String(params.id))!;
        capture(order, "COMPLETED");
        return paypalError(422, "UNPROCESSABLE_ENTITY", "ORDER_ALREADY_CAPTURED");
      }),

    /** Capture before the payer approved. */
    captureNotApproved: () =>
      http.post(captureUrl, async ({ request }) => {
        await record(request);
        return paypalError(422, "UNPROCESSABLE_ENTITY", "ORDER_NOT_APPROVED");
      }),

    /** PayPal itself fails (5xx) on `operation`. */
    serverError: (operation: "token" | "create" | "capture" | "get" | "refund", status = 500) => {
      const routes = {
        token: ["post", `${PAYPAL_API}/v1/oauth2/token`],
        create: ["post", `${PAYPAL_API}/v2/checkout/orders`],
        capture: ["post", captureUrl],
        get: ["get", `${PAYPAL_API}/v2/checkout/orders/:id`],
        refund: ["post", `${PAYPAL_API}/v2/payments/captures/:captureId/refund`],
      } as const;
      const [method, url] = routes[operation];
      return http[method](url, async ({ request }) => {
        await record(request);
        return HttpResponse.json(
          {
            name: "INTERNAL_SERVER_ERROR",
            message: "An internal server error occurred.",
            debug_id: "90957fca61718",
          },
          { status },
        );
      });
    },

    /** The OAuth token request is refused: wrong client id or secret. */
    invalidCredentials: () =>
      http.post(`${PAYPAL_API}/v1/oauth2/token`, async ({ request }) => {
        await record(request);
        return HttpResponse.json(
          { error: "invalid_client", error_description: "Client Authentication failed" },
          { status: 401 },
        );
      }),

    /** The capture answers only after `ms` milliseconds (past the client's timeout). */
    captureTimeout: (ms: number) =>
      http.post(captureUrl, async ({ request }) => {
        await record(request);
        await delay(ms);
        return HttpResponse.json({}, { status: 201 });
      }),

    /** The create answer carries the classic `approve` link instead of `payer-action`. */
    createWithApproveLink: () =>
      http.post(`${PAYPAL_API}/v2/checkout/orders`, async ({ request }) => {
        const entry = await record(request);
        const order: MockOrder = {
          id: nextId("7AP"),
          body: entry.body as MockOrder["body"],
          capture: null,
          refunds: [],
        };
        orders.set(order.id, order);
        return HttpResponse.json(
          {
            id: order.id,
            status: "CREATED",
            links: [
              { href: `${PAYPAL_API}/v2/checkout/orders/${order.id}`, rel: "self", method: "GET" },
              { href: `${PAYPAL_WEB}/checkoutnow?token=${order.id}`, rel: "approve", method: "GET" },
              {
                href: `${PAYPAL_API}/v2/checkout/orders/${order.id}/capture`,
                rel: "capture",
                method: "POST",
              },
            ],
          },
          { status: 201 },
        );
      }),
  };

  return {
    handlers,
    scenarios,
    requests,
    /** The recorded requests to `path` (a path or a test), in order. */
    requestsTo(path: string | RegExp, method?: string) {
      return requests.filter(
        (entry) =>
          (typeof path === "string" ? entry.path === path : path.test(entry.path)) &&
          (!method || entry.method === method),
      );
    },
    order: orderOf,
    reset() {
      requests.length = 0;
      orders.clear();
    },
  };
}
