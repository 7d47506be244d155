// Memory count and average salience over time, as plain SVG (no chart library).
import type { StatsResponse } from '../../../shared/api.ts';

type Point = StatsResponse['history'][number];

const W = 640;
const H = 220;
const PAD = { top: 16, right: 48, bottom: 32, left: 48 };

export function MemoryChart({ history }: { history: Point[] }) {
  const points = [...history].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  if (points.length === 0) {
    return <p className="empty">No history yet: each consolidation run adds a point.</p>;
  }
  const t0 = Date.parse(points[0]!.at);
  const t1 = Date.parse(points[points.length - 1]!.at);
  const span = Math.max(1, t1 - t0);
  const maxCount = Math.max(1, ...points.map((p) => p.pinned + p.episodes));
  const niceMax = niceCeil(Math.max(5, maxCount));
  const iw = W - PAD.left - PAD.right;
  const ih = H - PAD.top - PAD.bottom;
  const x = (p: Point) =>
    PAD.left + (points.length === 1 ? iw / 2 : ((Date.parse(p.at) - t0) / span) * iw);
  const yCount = (v: number) => PAD.top + ih - (v / niceMax) * ih;
  const ySal = (v: number) => PAD.top + ih - Math.min(1, Math.max(0, v)) * ih;
  const line = (f: (p: Point) => number) =>
    points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p).toFixed(1)},${f(p).toFixed(1)}`).join(' ');
  // Fifths of a 1/2/5×10ⁿ maximum (at least 5) are whole numbers.
  const ticks = [0, 0.2, 0.4, 0.6, 0.8, 1];
  // Runs on one day (a manual run or two) would get two identical date labels: show times.
  const sameDay = new Date(t0).toDateString() === new Date(t1).toDateString();
  const axisLabel = (t: number) =>
    sameDay
      ? new Date(t).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })
      : new Date(t).toLocaleDateString();
  const last = points[points.length - 1]!;
  const summary = `From ${new Date(t0).toLocaleDateString()} to ${new Date(t1).toLocaleDateString()}: memory count ${
    points[0]!.pinned + points[0]!.episodes
  } → ${last.pinned + last.episodes}, average salience ${points[0]!.avg_salience.toFixed(2)} → ${last.avg_salience.toFixed(2)}.`;

  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={summary}
        preserveAspectRatio="xMidYMid meet"
      >
        {ticks.map((t) => (
          <g key={t}>
            <line
              className="chart-grid"
              x1={PAD.left}
              x2={W - PAD.right}
              y1={PAD.top + ih - t * ih}
              y2={PAD.top + ih - t * ih}
            />
            <text
              className="chart-tick"
              x={PAD.left - 6}
              y={PAD.top + ih - t * ih + 4}
              textAnchor="end"
            >
              {Math.round(t * niceMax)}
            </text>
            <text className="chart-tick" x={W - PAD.right + 6} y={PAD.top + ih - t * ih + 4}>
              {t.toFixed(1)}
            </text>
          </g>
        ))}
        <text className="chart-tick" x={PAD.left} y={H - 8}>
          {axisLabel(t0)}
        </text>
        {t1 > t0 ? (
          <text className="chart-tick" x={W - PAD.right} y={H - 8} textAnchor="end">
            {axisLabel(t1)}
          </text>
        ) : null}
        <path className="chart-line chart-count" d={line((p) => yCount(p.pinned + p.episodes))} />
        <path className="chart-line chart-salience" d={line((p) => ySal(p.avg_salience))} />
        {points.map((p) => (
          <g key={p.at}>
            <circle
              className="chart-dot chart-count"
              cx={x(p)}
              cy={yCount(p.pinned + p.episodes)}
              r={3}
            />
            <circle
              className="chart-dot chart-salience"
              cx={x(p)}
              cy={ySal(p.avg_salience)}
              r={3}
            />
          </g>
        ))}
      </svg>
      <figcaption className="chart-legend">
        <span className="legend legend-count">Memories (facts + episodes), left axis</span>
        <span className="legend legend-salience">Average salience, right axis</span>
      </figcaption>
    </figure>
  );
}

function niceCeil(n: number): number {
  const mag = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 5, 10]) if (m * mag >= n) return m * mag;
  return 10 * mag;
}
