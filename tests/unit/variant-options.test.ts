import { describe, expect, it } from "vitest";
import { sizeAndColourOptions, variantOf } from "../../app/lib/shared/variants";

/** The two groups of a product in sizes and colours: what each offers, and what follows the chosen colour. */

const variants = [
  { size: "L", colour: "white", totalStock: 0 },
  { size: "S", colour: "black", totalStock: 4 },
  { size: "M", colour: "white", totalStock: 2 },
  { size: "M", colour: "black", totalStock: 0 },
  { size: "L", colour: "black", totalStock: 1 },
  { size: "XS", colour: "navy", totalStock: 0 },
];

describe("sizeAndColourOptions", () => {
  it("lists colours in the colour list's order and sizes in scale order, sold out only when sold out in all", () => {
    expect(sizeAndColourOptions(variants, null)).toEqual({
      colours: [
        { value: "black", soldOut: false },
        { value: "white", soldOut: false },
        { value: "navy", soldOut: true },
      ],
      sizes: [
        { value: "XS", soldOut: true },
        { value: "S", soldOut: false },
        { value: "M", soldOut: false },
        { value: "L", soldOut: false },
      ],
    });
  });

  it("with a colour chosen, closes the sizes that colour has sold out or does not make; the colours stay as they were", () => {
    const white = sizeAndColourOptions(variants, "white");
    expect(white.sizes).toEqual([
      { value: "XS", soldOut: true },
      { value: "S", soldOut: true },
      { value: "M", soldOut: false },
      { value: "L", soldOut: true },
    ]);
    expect(white.colours).toEqual(sizeAndColourOptions(variants, null).colours);
    expect(sizeAndColourOptions(variants, "black").sizes.filter((size) => !size.soldOut)).toEqual([
      { value: "S", soldOut: false },
      { value: "L", soldOut: false },
    ]);
  });
});

describe("variantOf", () => {
  it("finds the variant of a size and colour, and nothing for a pair not made", () => {
    expect(variantOf(variants, "M", "white")).toBe(variants[2]);
    expect(variantOf(variants, "S", "white")).toBeUndefined();
    expect(variantOf([{ size: "M", colour: null }], "M", null)).toEqual({ size: "M", colour: null });
  });
});
