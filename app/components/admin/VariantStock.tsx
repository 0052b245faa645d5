import { LOW_STOCK_THRESHOLD, VARIANT_TEXT, colourLabel, type VariantJson } from "~/lib/shared/variants";

/** The mark a variant's stock gets in the admin grid: sold out, low (under the threshold), or none. */
function stockMark(stock: number): "sold-out" | "low" | null {
  if (stock === 0) return "sold-out";
  return stock < LOW_STOCK_THRESHOLD ? "low" : null;
}

const MARK_TEXT = { "sold-out": VARIANT_TEXT.soldOut, low: "low" } as const;

/**
 * Stock per size at a glance: "S 2 · M 0 · L 12", the sold-out and low ones
 * marked in colour and, for screen readers, in words ("M 0 (sold out)").
 */
export function VariantStock({ variants }: { variants: readonly VariantJson[] }) {
  return (
    <span className="admin-variant-stock" data-testid="admin-variant-stock">
      {variants.map((variant, index) => {
        const name = [variant.size, variant.colour && colourLabel(variant.colour)].filter(Boolean).join(" ");
        const mark = stockMark(variant.totalStock);
        return (
          <span key={variant._id}>
            {index > 0 ? " · " : null}
            <span className={mark ? `admin-variant-stock__item--${mark}` : undefined}>
              {name || variant.sku} {variant.totalStock}
              {mark ? <span className="visually-hidden"> ({MARK_TEXT[mark]})</span> : null}
            </span>
          </span>
        );
      })}
    </span>
  );
}
