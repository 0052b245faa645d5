import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Comments, strings and test names say their reason themselves: a reference
 * to a numbered issue points into a tracker that is not in the repository, so
 * a reader cannot follow it. A long reason belongs in a decision record
 * (docs/decisions/), which is why those, like bench/RESULTS.md's dated
 * measurements, may keep their history and are not scanned.
 */
const root = path.resolve(__dirname, "../..");

const SCANNED_FOLDERS = ["app", "server", "tests", "scripts", "db", "bench", ".ci"];
const SCANNED_TOP_LEVEL_FILES = [
  "README.md",
  "eslint.config.js",
  "react-router.config.ts",
  "vite.config.ts",
  "playwright.config.ts",
  "vitest.config.ts",
  "vitest.pool-one.config.ts",
  "package.json",
  "tsconfig.json",
  ".env.example",
];
const NOT_SCANNED = new Set(["bench/RESULTS.md"]);
const SKIPPED_FOLDERS = new Set(["node_modules"]);
const TEXT_FILE = /\.(?:[cm]?[jt]sx?|css|md|json|sql|ya?ml)$/;

/**
 * "issue" or "issues" (any case) and then a number, "#" or "§", also when a
 * comment wraps between the word and its number.
 */
const ISSUE_REFERENCE = /\bissues?(?:\s|\*|\/\/|#)*§?\s*\d/gi;

function issueReferences(text: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  for (const match of text.matchAll(ISSUE_REFERENCE)) {
    const line = text.slice(0, match.index).split("\n").length;
    found.push({ line, text: text.split("\n")[line - 1]!.trim() });
  }
  return found;
}

function filesUnder(folder: string): string[] {
  const absolute = path.join(root, folder);
  return readdirSync(absolute).flatMap((name) => {
    const relative = path.posix.join(folder, name);
    if (statSync(path.join(absolute, name)).isDirectory()) {
      return SKIPPED_FOLDERS.has(name) ? [] : filesUnder(relative);
    }
    // .ci's scripts have no extension.
    return TEXT_FILE.test(name) || folder.startsWith(".ci") ? [relative] : [];
  });
}

function scannedFiles(): string[] {
  return [...SCANNED_FOLDERS.flatMap(filesUnder), ...SCANNED_TOP_LEVEL_FILES].filter(
    (file) => !NOT_SCANNED.has(file),
  );
}

describe("references to a tracker outside the repository", () => {
  it("finds an issue number however it is written, and not zod's or PayPal's issues", () => {
    const word = "issue";
    expect(issueReferences(`// the storefront's budget (${word} 10)`)).toEqual([
      { line: 1, text: `// the storefront's budget (${word} 10)` },
    ]);
    expect(
      issueReferences(`x\n  // ${word[0]!.toUpperCase()}${word.slice(1)} 9 §4: the payment state`),
    ).toHaveLength(1);
    expect(issueReferences(`see ${word} #14`)).toHaveLength(1);
    expect(issueReferences(`see ${word}s 5 and 8`)).toHaveLength(1);
    expect(issueReferences(`Accessibility (${word} §9)`)).toHaveLength(1);
    expect(issueReferences(`/**\n * kept off the page (${word}\n * 10).\n */`)).toEqual([
      { line: 2, text: `* kept off the page (${word}` },
    ]);
    expect(
      issueReferences("for (const issue of error.issues) ctx.addIssue({ message: issue.message });"),
    ).toEqual([]);
    expect(issueReferences('details: [{ issue: "INSTRUMENT_DECLINED" }], issues[0]')).toEqual([]);
  });

  it("scans the code, tests, scripts, bench scripts and configs, but not bench/RESULTS.md", () => {
    const files = scannedFiles();
    expect(files).toEqual(
      expect.arrayContaining([
        "app/root.tsx",
        "app/styles/app.css",
        "bench/run.ts",
        "bench/README.md",
        "db/seed/art.ts",
        "server/security.ts",
        "tests/e2e/cart.spec.ts",
        "playwright.config.ts",
        ".ci/run",
      ]),
    );
    expect(files).not.toContain("bench/RESULTS.md");
    expect(files.some((file) => file.startsWith("docs/"))).toBe(false);
  });

  it("has no comment, string or test name that cites an issue number", () => {
    const found = scannedFiles().flatMap((file) =>
      issueReferences(readFileSync(path.join(root, file), "utf8")).map(
        (reference) => `${file}:${reference.line}: ${reference.text}`,
      ),
    );
    expect(found, "say the reason itself, or point to a record in docs/decisions/").toEqual([]);
  });
});
