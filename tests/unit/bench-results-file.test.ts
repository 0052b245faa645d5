import { describe, expect, it } from "vitest";
import { replaceSection } from "../../bench/results-file";

/** Each benchmark rewrites only its own section of bench/RESULTS.md. */
describe("replaceSection (bench/RESULTS.md)", () => {
  const document = [
    "# Results",
    "",
    "## JavaScript budget",
    "",
    "js table",
    "",
    "## Checkout under load",
    "",
    "old checkout",
    "",
    "## Throughput per page",
    "",
    "throughput table",
    "",
  ].join("\n");

  it("replaces a section in the middle and keeps the sections before and after it", () => {
    const updated = replaceSection(
      document,
      "## Checkout under load",
      "## Checkout under load\n\nnew checkout\n",
    );
    expect(updated).toBe(
      [
        "# Results",
        "",
        "## JavaScript budget",
        "",
        "js table",
        "",
        "## Checkout under load",
        "",
        "new checkout",
        "",
        "## Throughput per page",
        "",
        "throughput table",
        "",
      ].join("\n"),
    );
  });

  it("replaces the last section", () => {
    const updated = replaceSection(document, "## Throughput per page", "## Throughput per page\n\nnew\n");
    expect(updated.endsWith("## Throughput per page\n\nnew\n")).toBe(true);
    expect(updated).toContain("old checkout");
  });

  it("appends a section that is not there yet", () => {
    const updated = replaceSection(document, "## Hostile clients", "## Hostile clients\n\nhostile\n");
    expect(updated).toBe(`${document.trimEnd()}\n\n## Hostile clients\n\nhostile\n`);
  });

  it("matches the heading as a whole line, not as the start of a longer one", () => {
    const withLonger = document.replace("## Throughput per page", "## Throughput per page (old run)");
    const updated = replaceSection(withLonger, "## Throughput per page", "## Throughput per page\n\nnew\n");
    expect(updated).toContain("## Throughput per page (old run)");
    expect(updated.endsWith("## Throughput per page\n\nnew\n")).toBe(true);
  });
});
