import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * axe-core's serious and critical violations on the page as it is now, each
 * with its rule, help text and the first few elements it names. axe builds
 * a selector for every node of every result; `resultTypes: ["violations"]`
 * keeps that to one node for the passes and the undecided ones, which this
 * check never reads (axe's own advice for speed). Every rule still runs.
 *
 * In legacy mode axe runs once in the page and its same-origin frames. The default runs it in parts, frame by
 * frame, and joins the parts in a blank page it opens for each check, so that it can also reach frames of other
 * origins; the shop's pages have none (its Content-Security-Policy allows only its own), and the extra page and
 * the two more copies of axe it loads made every check about 2.5 times as long (1.3–3.3 s against 0.5–1.1 s).
 */
export async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .options({ resultTypes: ["violations"] })
    .setLegacyMode(true)
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(" ")),
    }));
}
