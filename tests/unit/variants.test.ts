import { describe, expect, it } from "vitest";
import {
  ALL_SIZES,
  canonicalColour,
  canonicalSize,
  cheapestVariant,
  chooseMessage,
  choiceOf,
  compareVariants,
  lowStockText,
  SIZE_SCALES,
  sizeLabel,
  variantLabel,
} from "../../app/lib/shared/variants";

const v = (size: string | null, colour: string | null = null) => ({ size, colour });

describe("size scales and colours", () => {
  it("gives each category its scale: letters for adults, ages for kids, EU shoe sizes, one size for accessories", () => {
    expect(SIZE_SCALES.men.map((size) => size.value)).toEqual(["XS", "S", "M", "L", "XL", "XXL"]);
    expect(SIZE_SCALES.women).toBe(SIZE_SCALES.men);
    expect(SIZE_SCALES.kids.map((size) => size.value)).toEqual([
      "2-3Y",
      "3-4Y",
      "4-5Y",
      "5-6Y",
      "6-7Y",
      "7-8Y",
      "8-9Y",
      "9-10Y",
      "10-11Y",
      "11-12Y",
      "12-13Y",
    ]);
    expect(SIZE_SCALES.footwear[0]).toEqual({ value: "EU 36", label: "EU 36", note: "US 4" });
    expect(SIZE_SCALES.footwear.at(-1)?.value).toBe("EU 46");
    expect(SIZE_SCALES.accessories.map((size) => size.value)).toEqual(["One size"]);
  });

  it("lists every size once, and shows the US size beside an EU shoe size", () => {
    const values = ALL_SIZES.map((size) => size.value);
    expect(new Set(values).size).toBe(values.length);
    expect(sizeLabel("EU 42")).toBe("EU 42 (US 8.5)");
    expect(sizeLabel("M")).toBe("M");
  });

  it("matches sizes and colours without regard to case, and only within the scale given", () => {
    expect(canonicalSize("xl")).toBe("XL");
    expect(canonicalSize(" eu 42 ")).toBe("EU 42");
    expect(canonicalSize("M", SIZE_SCALES.footwear)).toBeUndefined();
    expect(canonicalColour("NAVY")).toBe("navy");
    expect(canonicalColour("plaid")).toBeUndefined();
  });
});

describe("variants", () => {
  it("sorts sizes in their scale's order (not alphabetically), then colours in the list's order", () => {
    const sorted = [v("XL"), v("S", "red"), v("M"), v("S", "black"), v("XS")].sort(compareVariants);
    expect(sorted).toEqual([v("XS"), v("S", "black"), v("S", "red"), v("M"), v("XL")]);
  });

  it("finds the cheapest variant by the price the shopper pays", () => {
    const variants = [
      { id: "a", price: 30, salePrice: 0 },
      { id: "b", price: 40, salePrice: 25 },
      { id: "c", price: 26, salePrice: 0 },
    ];
    expect(cheapestVariant(variants)?.id).toBe("b");
    expect(cheapestVariant([])).toBeUndefined();
  });

  it("asks for a size, or for a colour when the variants differ only by colour", () => {
    expect(choiceOf([v(null)])).toBe("none");
    expect(choiceOf([v("S"), v("M")])).toBe("size");
    expect(choiceOf([v(null, "red"), v(null, "blue")])).toBe("colour");
    expect(choiceOf([v("S", "red"), v("M", "blue")])).toBe("size and colour");
    expect(chooseMessage([v("S"), v("M")])).toBe("Please choose a size");
    expect(chooseMessage([v("S", "red"), v("S", "blue")])).toBe("Please choose a colour");
    expect(chooseMessage([v("S", "red"), v("M", "blue")])).toBe("Please choose a size");
  });

  it("names a variant by its size and colour, and says 'Only n left' under ten", () => {
    expect(variantLabel(v("M", "black"))).toBe("M · Black");
    expect(variantLabel(v("EU 42"))).toBe("EU 42 (US 8.5)");
    expect(variantLabel(v(null))).toBe("");
    expect([0, 1, 9, 10].map(lowStockText)).toEqual(["", "Only 1 left", "Only 9 left", ""]);
  });
});
