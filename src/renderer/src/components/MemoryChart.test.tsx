// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryChart } from './MemoryChart.tsx';

afterEach(cleanup);

describe('MemoryChart', () => {
  it('draws both series in time order and describes them for screen readers', () => {
    const { container } = render(
      <MemoryChart
        history={[
          { at: '2026-03-03T00:00:00Z', pinned: 30, episodes: 10, avg_salience: 0.4 },
          { at: '2026-03-01T00:00:00Z', pinned: 10, episodes: 5, avg_salience: 0.8 },
          { at: '2026-03-02T00:00:00Z', pinned: 20, episodes: 5, avg_salience: 0.6 },
        ]}
      />,
    );
    const img = screen.getByRole('img');
    expect(img.getAttribute('aria-label')).toContain('memory count 15 → 40');
    expect(img.getAttribute('aria-label')).toContain('average salience 0.80 → 0.40');
    const count = container.querySelector('path.chart-count')!.getAttribute('d')!;
    const points = count
      .split(/[ML]/)
      .filter(Boolean)
      .map((p) => p.split(',').map(Number));
    expect(points).toHaveLength(3);
    // x increases with time; the count line goes up (smaller y), salience goes down.
    expect(points[0]![0]!).toBeLessThan(points[1]![0]!);
    expect(points[2]![1]!).toBeLessThan(points[0]![1]!);
    const sal = container.querySelector('path.chart-salience')!.getAttribute('d')!;
    const salPoints = sal
      .split(/[ML]/)
      .filter(Boolean)
      .map((p) => p.split(',').map(Number));
    expect(salPoints[2]![1]!).toBeGreaterThan(salPoints[0]![1]!);
  });

  it('labels the time axis with times when every run was on the same day', () => {
    const { container } = render(
      <MemoryChart
        history={[
          { at: '2026-03-01T09:00:00', pinned: 1, episodes: 1, avg_salience: 0.5 },
          { at: '2026-03-01T17:30:00', pinned: 2, episodes: 1, avg_salience: 0.5 },
        ]}
      />,
    );
    // the time axis labels sit under the plot (y = 220 − 8)
    const labels = [...container.querySelectorAll('text.chart-tick[y="212"]')].map(
      (t) => t.textContent ?? '',
    );
    expect(labels).toHaveLength(2);
    expect(labels[0]).not.toBe(labels[1]);
  });

  it('says when there is no history', () => {
    render(<MemoryChart history={[]} />);
    expect(screen.getByText(/No history yet/)).toBeInTheDocument();
  });
});
