import { auditTimeText, auditValueText, type AuditEntryView } from "~/lib/shared/audit";

/** One entry's changes: "price: 49.9 → 39.9", one per line. */
export function AuditChanges({ changes }: { changes: AuditEntryView["changes"] }) {
  const entries = Object.entries(changes);
  if (entries.length === 0) return <span>—</span>;
  return (
    <ul className="audit-changes">
      {entries.map(([field, [before, after]]) => (
        <li key={field}>
          <strong>{field}</strong>: {auditValueText(before)} → {auditValueText(after)}
        </li>
      ))}
    </ul>
  );
}

/**
 * The short history of one product or order on its own page: when, who, what
 * changed, newest first; the whole log is at /admin/audit.
 */
export function AuditHistory({
  entries,
  fullLogHref,
}: {
  entries: readonly AuditEntryView[];
  fullLogHref: string;
}) {
  return (
    <section className="audit-history" aria-labelledby="audit-history-title" data-testid="audit-history">
      <h2 id="audit-history-title" className="audit-history__title">
        History
      </h2>
      {entries.length === 0 ? (
        <p className="audit-history__empty">No changes on record yet.</p>
      ) : (
        <ol className="audit-history__list">
          {entries.map((entry) => (
            <li key={entry._id}>
              <p className="audit-history__meta">
                <time dateTime={entry.at}>{auditTimeText(entry.at)}</time> · {entry.actor.userName} ·{" "}
                {entry.action}
              </p>
              <AuditChanges changes={entry.changes} />
            </li>
          ))}
        </ol>
      )}
      <a href={fullLogHref} className="audit-history__more">
        All changes in the audit log
      </a>
    </section>
  );
}
