import type { RunnableMigration } from "umzug";
import type { QueryInterface } from "sequelize";
import { initialSchemaDown, initialSchemaUp } from "./0001-initial-schema";
import { productSearchDown, productSearchUp } from "./0002-product-search";
import { paymentSimulatorDown, paymentSimulatorUp } from "./0004-payment-simulator";
import { checkoutStatesDown, checkoutStatesUp } from "./0005-checkout-states";
import { featureBannerTextDown, featureBannerTextUp } from "./0006-feature-banner-text";
import { paymentReconcilerDown, paymentReconcilerUp } from "./0008-payment-reconciler";
import { mailOutboxDown, mailOutboxUp } from "./0007-mail-outbox";
import { productCountsDown, productCountsUp } from "./0009-product-counts";
import { productMaterialDown, productMaterialUp } from "./0010-product-material";
import { productVariantsDown, productVariantsUp } from "./0011-product-variants";
import { uploadedImagesDown, uploadedImagesUp } from "./0012-uploaded-images";
import { productImagesDown, productImagesUp } from "./0013-product-images";
import { orderSearchAndTrackingDown, orderSearchAndTrackingUp } from "./0014-order-search-and-tracking";
import { orderMoneyTimesDown, orderMoneyTimesUp } from "./0016-order-money-times";
import { auditLogAndVersionsDown, auditLogAndVersionsUp } from "./0015-audit-log-and-versions";
import { salesRollupsDown, salesRollupsUp } from "./0021-sales-rollups";
import { deliveryAndDiscountsDown, deliveryAndDiscountsUp } from "./0020-delivery-and-discounts";
import { auditMoreEntitiesDown, auditMoreEntitiesUp } from "./0022-audit-more-entities";
import { returnsDown, returnsUp } from "./0023-returns";
import { listingCountsDown, listingCountsUp } from "./0027-listing-counts";
import { taxDown, taxUp } from "./0030-tax";
import { webhooksDown, webhooksUp } from "./0031-webhooks";
import { stockAlertsWishlistDown, stockAlertsWishlistUp } from "./0032-stock-alerts-wishlist";
import { staffAndApiKeysDown, staffAndApiKeysUp } from "./0033-staff-and-api-keys";
import { twoFactorDown, twoFactorUp } from "./0034-two-factor";
import { storeSettingsDown, storeSettingsUp } from "./0036-store-settings";
import { catalogueVersionDown, catalogueVersionUp } from "./0041-catalogue-version";
import { guestOrdersDown, guestOrdersUp } from "./0043-guest-orders";
import { guestCheckoutExtraDown, guestCheckoutExtraUp } from "./0044-guest-checkout-extra";
import { guestOrderClaimsDown, guestOrderClaimsUp } from "./0045-guest-order-claims";
import { exchangesDown, exchangesUp } from "./0046-exchanges";
import { abandonedCartsDown, abandonedCartsUp } from "./0047-abandoned-carts";
import { giftCardsDown, giftCardsUp } from "./0048-gift-cards";
import { giftCardPurchasesDown, giftCardPurchasesUp } from "./0049-gift-card-purchases";
import { erasureDown, erasureUp } from "./0051-erasure";

/**
 * Every migration in order. Listed by hand (no glob) so that the list is the
 * same under tsx, vitest and any bundler. Never edit a migration that has
 * shipped: add the next one.
 */
export const migrations: RunnableMigration<QueryInterface>[] = [
  { name: "0001-initial-schema", up: initialSchemaUp, down: initialSchemaDown },
  { name: "0002-product-search", up: productSearchUp, down: productSearchDown },
  { name: "0004-payment-simulator", up: paymentSimulatorUp, down: paymentSimulatorDown },
  { name: "0005-checkout-states", up: checkoutStatesUp, down: checkoutStatesDown },
  { name: "0006-feature-banner-text", up: featureBannerTextUp, down: featureBannerTextDown },
  { name: "0007-mail-outbox", up: mailOutboxUp, down: mailOutboxDown },
  { name: "0008-payment-reconciler", up: paymentReconcilerUp, down: paymentReconcilerDown },
  { name: "0009-product-counts", up: productCountsUp, down: productCountsDown },
  { name: "0010-product-material", up: productMaterialUp, down: productMaterialDown },
  { name: "0011-product-variants", up: productVariantsUp, down: productVariantsDown },
  { name: "0012-uploaded-images", up: uploadedImagesUp, down: uploadedImagesDown },
  { name: "0013-product-images", up: productImagesUp, down: productImagesDown },
  {
    name: "0014-order-search-and-tracking",
    up: orderSearchAndTrackingUp,
    down: orderSearchAndTrackingDown,
  },
  { name: "0015-audit-log-and-versions", up: auditLogAndVersionsUp, down: auditLogAndVersionsDown },
  { name: "0016-order-money-times", up: orderMoneyTimesUp, down: orderMoneyTimesDown },
  { name: "0020-delivery-and-discounts", up: deliveryAndDiscountsUp, down: deliveryAndDiscountsDown },
  { name: "0021-sales-rollups", up: salesRollupsUp, down: salesRollupsDown },
  { name: "0022-audit-more-entities", up: auditMoreEntitiesUp, down: auditMoreEntitiesDown },
  { name: "0023-returns", up: returnsUp, down: returnsDown },
  { name: "0027-listing-counts", up: listingCountsUp, down: listingCountsDown },
  { name: "0030-tax", up: taxUp, down: taxDown },
  { name: "0031-webhooks", up: webhooksUp, down: webhooksDown },
  { name: "0032-stock-alerts-wishlist", up: stockAlertsWishlistUp, down: stockAlertsWishlistDown },
  { name: "0033-staff-and-api-keys", up: staffAndApiKeysUp, down: staffAndApiKeysDown },
  { name: "0034-two-factor", up: twoFactorUp, down: twoFactorDown },
  { name: "0036-store-settings", up: storeSettingsUp, down: storeSettingsDown },
  { name: "0041-catalogue-version", up: catalogueVersionUp, down: catalogueVersionDown },
  { name: "0043-guest-orders", up: guestOrdersUp, down: guestOrdersDown },
  { name: "0044-guest-checkout-extra", up: guestCheckoutExtraUp, down: guestCheckoutExtraDown },
  { name: "0045-guest-order-claims", up: guestOrderClaimsUp, down: guestOrderClaimsDown },
  { name: "0046-exchanges", up: exchangesUp, down: exchangesDown },
  { name: "0047-abandoned-carts", up: abandonedCartsUp, down: abandonedCartsDown },
  { name: "0048-gift-cards", up: giftCardsUp, down: giftCardsDown },
  { name: "0049-gift-card-purchases", up: giftCardPurchasesUp, down: giftCardPurchasesDown },
  { name: "0051-erasure", up: erasureUp, down: erasureDown },
];
