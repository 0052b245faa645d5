import { useEffect, useRef, useState } from "react";
import { formatPrice } from "~/lib/shared/money";
import {
  choiceOf,
  colourLabel,
  colourOption,
  payPrice,
  sizeAndColourOptions,
  sizeLabel,
  VARIANT_TEXT,
  variantLabel,
  variantOf,
  type VariantJson,
} from "~/lib/shared/variants";

const LEGENDS = { size: "Size", colour: "Colour" } as const;

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
  onColour,
  defaultVariantId = null,
}: {
  variants: readonly VariantJson[];
  idPrefix: string;
  error: string | null;
  onChoose: (variantId: string | null) => void;
  /** The colour chosen (before a size is, too): the gallery shows that colour's pictures. */
  onColour?: (colour: string | null) => void;
  /** The variant the page's URL chose (`?variant=`, the back-in-stock mail's link), when in stock. */
  defaultVariantId?: string | null;
}) {
  const fieldset = useRef<HTMLFieldSetElement>(null);
  const chooseVariant = (variantId: string) => {
    onChoose(variantId);
    const colour = variants.find((variant) => variant._id === variantId)?.colour;
    if (colour) onColour?.(colour);
  };
  // A choice made before the scripts ran counts as well.
  useEffect(() => {
    const checked = fieldset.current?.querySelector<HTMLInputElement>("input:checked");
    if (checked) chooseVariant(checked.value);
    // Only once, for what the server's HTML already held.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const choice = choiceOf(variants);
  if (choice === "none") return null;
  if (choice === "size and colour")
    return (
      <SizeAndColourPicker
        variants={variants}
        idPrefix={idPrefix}
        refused={error !== null}
        onChoose={onChoose}
        onColour={onColour}
        chosen={
          variants.find((variant) => variant._id === defaultVariantId && variant.totalStock > 0) ?? null
        }
      />
    );
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
                defaultChecked={!soldOut && variant._id === defaultVariantId}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorId : undefined}
                onChange={() => chooseVariant(variant._id)}
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

/**
 * A product sold in sizes and colours: two groups, Colour (swatches with
 * their names) and Size, posted as `colour` and `size` (the cart action finds
 * the variant). Without JavaScript a colour is disabled when it is sold out in
 * every size, a size when it is sold out in every colour; with it, the sizes
 * follow the chosen colour, and the chosen pair's variant goes to `onChoose`
 * (the price and "Only n left" follow it). After a refused add, each group
 * still without a choice asks for one: without JavaScript the page comes back
 * with nothing chosen, so both ask.
 */
function SizeAndColourPicker({
  variants,
  idPrefix,
  refused,
  onChoose,
  onColour,
  chosen,
}: {
  variants: readonly VariantJson[];
  idPrefix: string;
  refused: boolean;
  onChoose: (variantId: string | null) => void;
  onColour?: (colour: string | null) => void;
  /** The variant chosen by the page's URL: its colour and size start checked. */
  chosen: VariantJson | null;
}) {
  const [colour, setColour] = useState<string | null>(chosen?.colour ?? null);
  const [size, setSize] = useState<string | null>(chosen?.size ?? null);
  const picker = useRef<HTMLDivElement>(null);
  const choose = (nextSize: string | null, nextColour: string | null) => {
    setSize(nextSize);
    setColour(nextColour);
    if (nextColour !== colour) onColour?.(nextColour);
    onChoose(variantOf(variants, nextSize, nextColour)?._id ?? null);
  };
  // Choices made before the scripts ran count as well (only once, for what the server's HTML held).
  useEffect(() => {
    const checked = (name: string) =>
      picker.current?.querySelector<HTMLInputElement>(`input[name="${name}"]:checked`)?.value ?? null;
    choose(checked("size"), checked("colour"));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const { colours, sizes } = sizeAndColourOptions(variants, colour);
  const chooseColour = (value: string) => {
    // A chosen size that the new colour does not offer is let go: a disabled radio would not be sent.
    const keep =
      size !== null && !sizeAndColourOptions(variants, value).sizes.find((s) => s.value === size)?.soldOut;
    const sizeInput = picker.current?.querySelector<HTMLInputElement>('input[name="size"]:checked');
    if (!keep && sizeInput) sizeInput.checked = false;
    choose(keep ? size : null, value);
  };
  return (
    <div ref={picker} data-testid="variant-picker">
      <OptionGroup
        name="colour"
        legend={LEGENDS.colour}
        idPrefix={idPrefix}
        options={colours}
        error={refused && colour === null ? VARIANT_TEXT.chooseColour : null}
        defaultValue={chosen?.colour ?? null}
        swatchOf={(value) => colourOption(value)?.swatch}
        textOf={colourLabel}
        onChange={chooseColour}
      />
      <OptionGroup
        name="size"
        legend={LEGENDS.size}
        idPrefix={idPrefix}
        options={sizes}
        error={refused && size === null ? VARIANT_TEXT.chooseSize : null}
        defaultValue={chosen?.size ?? null}
        textOf={sizeLabel}
        onChange={(value) => choose(value, colour)}
      />
    </div>
  );
}

/** One group of radio tiles (`name`: "colour" or "size"), a sold-out option disabled, its error beside it. */
function OptionGroup({
  name,
  legend,
  idPrefix,
  options,
  error,
  defaultValue,
  swatchOf,
  textOf,
  onChange,
}: {
  name: string;
  legend: string;
  idPrefix: string;
  options: readonly { value: string; soldOut: boolean }[];
  error: string | null;
  defaultValue: string | null;
  swatchOf?: (value: string) => string | undefined;
  textOf: (value: string) => string;
  onChange: (value: string) => void;
}) {
  const errorId = `${idPrefix}-${name}-error`;
  const invalid = error ? true : undefined;
  const describedBy = error ? errorId : undefined;
  return (
    <fieldset className="variant-picker" aria-invalid={invalid} aria-describedby={describedBy}>
      <legend className="variant-picker__legend">{legend}</legend>
      <div className="variant-picker__options">
        {options.map(({ value, soldOut }, index) => {
          // By position: a value such as "EU 42" or "One size" has a space, which an id may not.
          const id = `${idPrefix}-${name}-${index}`;
          return (
            <div key={value} className="variant-option">
              <input
                type="radio"
                className="variant-option__input"
                id={id}
                name={name}
                value={value}
                disabled={soldOut}
                defaultChecked={!soldOut && value === defaultValue}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={() => onChange(value)}
              />
              <label htmlFor={id} className="variant-option__label">
                {swatchOf ? (
                  <span
                    className="variant-option__swatch"
                    style={{ background: swatchOf(value) }}
                    aria-hidden="true"
                  />
                ) : null}
                {/* As above: the name and "sold out" are one text for screen readers. */}
                <span className="variant-option__name" aria-hidden={soldOut || undefined}>
                  {textOf(value)}
                </span>
                {soldOut ? (
                  <span className="visually-hidden">{`${textOf(value)}, ${VARIANT_TEXT.soldOut}`}</span>
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
