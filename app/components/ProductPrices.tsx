import { formatPrice } from "~/lib/shared/money";

/**
 * The price a shopper sees (SPEC §2): the price struck through with the sale
 * price beside it when on sale (salePrice > 0), else the price alone. Screen
 * readers hear "Was … Now …".
 */
export function ProductPrices({
  price,
  salePrice,
  className,
  large = false,
}: {
  price: number;
  salePrice: number;
  className: string;
  large?: boolean;
}) {
  const priceClass = large ? "price price--lg" : "price";
  return (
    <p className={className}>
      {salePrice > 0 ? (
        <>
          <s className={`${priceClass} price--struck`}>
            <span className="visually-hidden">Was </span>
            {formatPrice(price)}
          </s>
          <span className={priceClass}>
            <span className="visually-hidden">Now </span>
            {formatPrice(salePrice)}
          </span>
        </>
      ) : (
        <span className={priceClass}>{formatPrice(price)}</span>
      )}
    </p>
  );
}
