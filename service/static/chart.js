// Rating curves drawn by uPlot (vendored in /static/vendor/uplot, loaded by the page as the
// global `uPlot`): one line per account, rating (mu - 3 sigma) over time, from the accounts'
// rating histories (GET /api/v1/accounts/{id}/history). uPlot wants one x axis for every
// series: the union of the times, each series null where it has no point (spanGaps joins
// its line across them).

const COLOURS = ["#1b6e3a", "#b03a2e", "#1f4e8c", "#b7791f", "#6b3fa0", "#2c7a7b", "#9b2c6e", "#555"];

function xRange(times) {
  const [first, last] = [times[0] ?? 0, times[times.length - 1] ?? 0];
  return last - first < 7200 ? [first - 3600, last + 3600] : [first, last];
}

/**
 * Draw `curves` ([{label, points: [{when, rating}]}], points in any order) into `element`;
 * marks it `data-drawn="N"` (N lines) once drawn.
 */
export function drawCurves(element, curves, yLabel, xLabel) {
  const times = [...new Set(curves.flatMap((c) => c.points.map((p) => p.when)))].sort((a, b) => a - b);
  const at = new Map(times.map((when, i) => [when, i]));
  const data = [times];
  for (const curve of curves) {
    const ys = new Array(times.length).fill(null);
    for (const point of curve.points) ys[at.get(point.when)] = point.rating;
    data.push(ys);
  }
  const width = Math.max(280, Math.min(element.clientWidth || 800, 960));
  const options = {
    width,
    height: Math.round(Math.min(360, width * 0.6)),
    series: [
      { label: xLabel },
      ...curves.map((curve, i) => ({
        label: curve.label,
        stroke: COLOURS[i % COLOURS.length],
        width: 2,
        spanGaps: true,
        points: { show: times.length < 60 },
      })),
    ],
    axes: [{}, { label: yLabel }],
    // Set, not found by uPlot, which draws a lone point (or a few close in time) across
    // years: the times' span, at least an hour either side of them.
    scales: { x: { time: true, auto: false, range: xRange(times) } },
  };
  element.innerHTML = "";
  // eslint-disable-next-line no-undef
  new uPlot(options, data, element);
  element.dataset.drawn = String(curves.length);
}
