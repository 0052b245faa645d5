import { formatPrice } from "~/lib/shared/money";

/**
 * The daily revenue as bars, drawn on the server as an inline SVG (readable
 * without JavaScript), with the same numbers as a table for screen readers and
 * for anyone who wants the figures: the chart is a picture (`role="img"`, its
 * label sums it up), the table is the data.
 */

interface ChartDay {
  date: string;
  revenue: number;
  orders: number;
}

/** "$12.00", "−$50.00": a day's revenue is negative when its refunds outweigh its sales. */
export function formatSignedPrice(amount: number): string {
  return amount < 0 ? `−${formatPrice(-amount)}` : formatPrice(amount);
}

const dayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** "Mar 29" for 2026-03-29 (the date is a calendar day: read it in UTC so no zone shifts it). */
export function shortDate(date: string): string {
  return dayFormat.format(new Date(`${date}T00:00:00Z`));
}

const WIDTH = 640;
const HEIGHT = 240;
const LEFT = 84;
const RIGHT = 8;
const TOP = 12;
const BOTTOM = 28;

export function SalesChart({ days }: { days: readonly ChartDay[] }) {
  const max = Math.max(0, ...days.map((day) => day.revenue));
  const min = Math.min(0, ...days.map((day) => day.revenue));
  const span = max - min || 1;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const y = (value: number) => TOP + ((max - value) / span) * plotHeight;
  const slot = (WIDTH - LEFT - RIGHT) / Math.max(days.length, 1);
  const barWidth = Math.max(1, slot * 0.7);
  const total = days.reduce((sum, day) => sum + Math.round(day.revenue * 100), 0) / 100;
  const best = days.reduce<ChartDay | null>(
    (top, day) => (!top || day.revenue > top.revenue ? day : top),
    null,
  );
  const first = days[0];
  const last = days.at(-1);
  const label =
    first && last
      ? `Daily revenue from ${shortDate(first.date)} to ${shortDate(last.date)}: ${formatSignedPrice(total)} in all` +
        (best && best.revenue > 0
          ? `, highest ${formatSignedPrice(best.revenue)} on ${shortDate(best.date)}`
          : ", no sales")
      : "No days to show";
  // Date labels at the ends and the middle, so that 365 bars stay readable.
  const labelled = new Set([0, Math.floor((days.length - 1) / 2), days.length - 1]);

  return (
    <div className="sales-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} className="sales-chart__svg">
        <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(0)} y2={y(0)} className="sales-chart__axis" />
        <line x1={LEFT} x2={LEFT} y1={TOP} y2={HEIGHT - BOTTOM} className="sales-chart__axis" />
        <text x={LEFT - 6} y={y(max) + 4} textAnchor="end" className="sales-chart__label">
          {formatSignedPrice(max)}
        </text>
        {max !== 0 ? (
          <text x={LEFT - 6} y={y(0) + 4} textAnchor="end" className="sales-chart__label">
            $0
          </text>
        ) : null}
        {min < 0 ? (
          <text x={LEFT - 6} y={y(min) + 4} textAnchor="end" className="sales-chart__label">
            {formatSignedPrice(min)}
          </text>
        ) : null}
        {days.map((day, index) => {
          const x = LEFT + index * slot + (slot - barWidth) / 2;
          const top = y(Math.max(day.revenue, 0));
          const height = Math.abs(y(day.revenue) - y(0));
          return (
            <g key={day.date}>
              {day.revenue !== 0 ? (
                <rect
                  x={x}
                  y={top}
                  width={barWidth}
                  height={Math.max(height, 1)}
                  className={
                    day.revenue < 0 ? "sales-chart__bar sales-chart__bar--negative" : "sales-chart__bar"
                  }
                />
              ) : null}
              {labelled.has(index) ? (
                <text
                  x={Math.min(Math.max(x + barWidth / 2, LEFT + 20), WIDTH - RIGHT - 20)}
                  y={HEIGHT - 8}
                  textAnchor="middle"
                  className="sales-chart__label"
                >
                  {shortDate(day.date)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <details className="sales-chart__details">
        <summary>Show as table</summary>
        <div className="sales-chart__table-wrap">
          <table className="sales-chart__table">
            <caption>Revenue and paid orders by day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Revenue</th>
                <th scope="col">Orders</th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.date}>
                  <th scope="row">
                    <time dateTime={day.date}>{day.date}</time>
                  </th>
                  <td>{formatSignedPrice(day.revenue)}</td>
                  <td>{day.orders}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
