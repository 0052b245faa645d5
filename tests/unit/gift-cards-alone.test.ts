import { describe, expect, it } from "vitest";
import { holdsCardsAlone } from "../../app/lib/shared/gift-card-view";

describe("gift cards alone", () => {
  it("is a cart with a card to buy and no clothes", () => {
    expect(holdsCardsAlone({ clothes: 0, cards: 1 })).toBe(true);
    expect(holdsCardsAlone({ clothes: 0, cards: 3 })).toBe(true);
  });

  it("is not a cart with clothes beside its cards, nor one with nothing in it", () => {
    expect(holdsCardsAlone({ clothes: 1, cards: 1 })).toBe(false);
    expect(holdsCardsAlone({ clothes: 2, cards: 0 })).toBe(false);
    expect(holdsCardsAlone({ clothes: 0, cards: 0 })).toBe(false);
  });
});
