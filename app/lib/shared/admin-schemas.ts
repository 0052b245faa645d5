import { z } from "zod";
import { ADMIN_ORDER_STATUSES } from "./order-options";
import { imageField, isMissing } from "./product-schema";
import { sameSitePath } from "./site-path";
import { controlCharacterMessage, hasControlCharacter } from "./text-rules";

/**
 * The admin's input rules for orders and banners (API.md): one schema for the
 * JSON API and the HTML actions. The product's are derived from its
 * definition (product-schema.ts). Safe to import in the browser.
 */

export { productInputSchema } from "./product-schema";

export {
  ADMIN_ORDER_STATUSES,
  ORDER_STATUSES as ALL_ORDER_STATUSES,
  ORDER_STATUS_LABELS,
  type AdminOrderStatus,
} from "./order-options";

export const orderStatusSchema = z.object({
  orderStatus: z.enum(ADMIN_ORDER_STATUSES, {
    error: (issue) =>
      isMissing(issue.input)
        ? "Order status is required"
        : `Order status must be one of: ${ADMIN_ORDER_STATUSES.join(", ")}`,
  }),
});

/** Blank, null or missing: none (the banner uses its default). */
const blankToUndefined = (value: unknown) =>
  value === null || (typeof value === "string" && value.trim() === "") ? undefined : value;

/** An optional banner text: blank means "use the default". */
const optionalBannerText = (max: number, label: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ message: `${label} must be text` })
      .trim()
      .max(max, `${label} must be at most ${max} characters`)
      .refine((value) => !hasControlCharacter(value), controlCharacterMessage(label))
      .optional(),
  );

const FEATURE_LINK_MESSAGE =
  "Link must be a path on this shop that starts with /, such as /shop/listing?category=men";

const SHOP_PATH = /^\/(?![/\\])[^\s]*$/;

export const featureInputSchema = z.object({
  image: imageField.refine(
    (value) => !/^https?:/i.test(value),
    "Upload the image first: use the URL the upload returned",
  ),
  title: optionalBannerText(80, "Title"),
  subtitle: optionalBannerText(160, "Subtitle"),
  // A path on the shop only: a banner never sends shoppers to another site.
  link: z.preprocess(
    blankToUndefined,
    z
      .string({ message: FEATURE_LINK_MESSAGE })
      .trim()
      .max(300, "Link must be at most 300 characters")
      .regex(SHOP_PATH, FEATURE_LINK_MESSAGE)
      // Also once a browser resolves it: "/.//evil.example" is "//evil.example", another site.
      // (One message per mistake: a link the pattern refused has said so already.)
      .refine((value) => !SHOP_PATH.test(value) || sameSitePath(value) !== null, FEATURE_LINK_MESSAGE)
      .optional(),
  ),
});
