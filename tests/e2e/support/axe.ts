import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * axe-core's serious and critical violations on the page as it is now, each
 * with its rule, help text and the first few elements it names. axe builds
 * a selector for every node of every result; `resultTypes: ["violations"]`
 * keeps that to one node for the passes and the undecided ones, which this
 * check never reads (axe's own advice for speed). Every rule still runs.
 */
export async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(" ")),
    }));
}
