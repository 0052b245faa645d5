import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as prettier from "prettier";

/** bench/RESULTS.md: every benchmark owns one section, under a `## ` heading of its own. */
export const RESULTS_FILE = path.resolve("bench/RESULTS.md");

/**
 * `document` with the section under `heading` (a whole `## ` line, up to the
 * next `## ` heading) replaced by `section`, or `section` appended when there
 * is none. The sections before and after it stay as they are.
 */
export function replaceSection(document: string, heading: string, section: string): string {
  const lines = document.split("\n");
  const start = lines.findIndex((line) => line.trimEnd() === heading);
  if (start < 0) return `${document.trimEnd()}\n\n${section.trim()}\n`;
  const after = lines.findIndex((line, index) => index > start && line.startsWith("## "));
  const before = lines.slice(0, start).join("\n").trimEnd();
  const rest = after < 0 ? "" : `\n\n${lines.slice(after).join("\n").trim()}`;
  return `${before ? `${before}\n\n` : ""}${section.trim()}${rest}\n`;
}

/** Writes `section` into bench/RESULTS.md in place of its earlier run, formatted as the repository formats Markdown. */
export async function writeResultsSection(heading: string, section: string): Promise<void> {
  const updated = replaceSection(readFileSync(RESULTS_FILE, "utf8"), heading, section);
  const options = (await prettier.resolveConfig(RESULTS_FILE)) ?? {};
  writeFileSync(RESULTS_FILE, await prettier.format(updated, { ...options, filepath: RESULTS_FILE }));
}
