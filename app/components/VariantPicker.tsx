import { useEffect, useRef } from "react";
import { formatPrice } from "~/lib/shared/money";
import {
  choiceOf,
  colourOption,
  payPrice,
  VARIANT_TEXT,
  variantLabel,
  type VariantJson,
} from "~/lib/shared/variants";

const LEGENDS = { size: "Size", colour: "Colour", "size and colour": "Size and colour" } as const;

/**
 * The size and colour choice of a product with several variants: one radio
 * per variant, named `variantId`, inside the add-to-cart form, so that it
 * works without JavaScript. A variant whose size and colour both vary reads
 * "M · Black". A sold-out variant is disabled, struck through and says "sold
 * out" to screen readers. When the variants' prices differ, each option shows
 * its own (the price above follows the choice only with JavaScript).
 * `error` is the server's "Please choose a size", shown beside the choices.
 */
export function VariantPicker({
  variants,
  idPrefix,
  error,
  onChoose,
}: {
  variants: readonly VariantJson[];
  idPrefix: string;
  error: string | null;
  onChoose: (variantId: string) => void;
}) {
  const fieldset = useRef<HTMLFieldSetElement>(null);
  // A choice made before the scripts ran counts as well.
  useEffect(() => {
    const checked = fieldset.current?.querySelector<HTMLInputElement>("input:checked");
    if (checked) onChoose(checked.value);
    // Only once, for what the server's HTML already held.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const choice = choiceOf(variants);
  if (choice === "none") return null;
  const prices = new Set(variants.map(payPrice));
  const errorId = `${idPrefix}-variant-error`;
  return (
    <fieldset
      ref={fieldset}
      className="variant-picker"
      data-testid="variant-picker"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="variant-picker__legend">{LEGENDS[choice]}</legend>
      <div className="variant-picker__options">
        {variants.map((variant) => {
          const id = `${idPrefix}-variant-${variant._id}`;
          const soldOut = variant.totalStock <= 0;
          const swatch = colourOption(variant.colour)?.swatch;
          return (
            <div key={variant._id} className="variant-option">
              <input
                type="radio"
                className="variant-option__input"
                id={id}
                name="variantId"
                value={variant._id}
                disabled={soldOut}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorId : undefined}
                onChange={() => onChoose(variant._id)}
              />
              <label htmlFor={id} className="variant-option__label">
                {swatch ? (
                  <span
                    className="variant-option__swatch"
                    style={{ background: swatch }}
                    aria-hidden="true"
                  />
                ) : null}
                {soldOut ? (
                  // Screen readers hear the name and "sold out" as one text ("S, sold out"): browsers put a
                  // space before a visually hidden part of a name.
                  <>
                    <span className="variant-option__name" aria-hidden="true">
                      {variantLabel(variant)}
                    </span>
                    <span className="visually-hidden">{`${variantLabel(variant)}, ${VARIANT_TEXT.soldOut}`}</span>
                  </>
                ) : (
                  <span className="variant-option__name">{variantLabel(variant)}</span>
                )}
                {prices.size > 1 ? (
                  <span className="variant-option__price">{formatPrice(payPrice(variant))}</span>
                ) : null}
              </label>
            </div>
          );
        })}
      </div>
      {error ? (
        <p className="form-error variant-picker__error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
