/**
 * An order's status as a badge (SPEC §2): green for confirmed, red for
 * rejected, black otherwise. Plain markup: it repeats in every order row.
 */
export function OrderStatusBadge({ status }: { status: string }) {
  const tone = status === "confirmed" ? "green" : status === "rejected" ? "red" : "black";
  return (
    <span className={`order-status-badge order-status-badge--${tone}`} data-status={status}>
      {/* The spec's statuses read as the spec writes them; "cancelled" is newer and reads as a word. */}
      {status === "cancelled" ? "Cancelled" : status}
    </span>
  );
}
