package dev.jgrad.train;

import dev.jgrad.nn.io.AtomicFile;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Loss curves as a PNG (JFreeChart, headless): one line per series and split, titled, axes labelled,
 * a legend, and a log-scale loss axis when the losses span more than a factor of 20.
 */
public final class LossChart {
    private static final Color[] PALETTE = {
        new Color(0xD6, 0x27, 0x28), new Color(0x1F, 0x77, 0xB4), new Color(0x2C, 0xA0, 0x2C),
        new Color(0xFF, 0x7F, 0x0E), new Color(0x94, 0x67, 0xBD), new Color(0x8C, 0x56, 0x4B)};

    static {
        // Images are encoded in memory: ImageIO's disk cache, on a full disk, fails in a shutdown thread with a trace.
        javax.imageio.ImageIO.setUseCache(false);
    }

    private LossChart() {
    }

    /** Curves with at most this many points get a marker at each point (a one-epoch run is a single point per curve). */
    static final int MARKERS_UP_TO = 40;

    /** TensorBoard's default smoothing of the step-by-step training loss: an exponential moving average with this weight. */
    static final double SMOOTHING = 0.6;
    /** The split of the training loss logged every few steps (metrics.csv); the per-epoch mean is split "train". */
    public static final String STEP_SPLIT = "train_step";

    /** One drawn curve: its points and how it looks. */
    private record Curve(XYSeries points, int colour, boolean dashed, boolean light) {
    }

    /** The loss curves of {@code metrics} as a chart: each series in its colour, the step losses light with their moving average, the held-out losses dashed. */
    public static JFreeChart chart(Metrics metrics, String title, String subtitle) {
        java.util.Set<String> seriesNames = new java.util.LinkedHashSet<>();
        java.util.Set<String> stepped = new java.util.HashSet<>();
        for (Metrics.Row r : metrics.rows()) {
            seriesNames.add(r.series());
            if (r.split().equals(STEP_SPLIT) && Double.isFinite(r.loss())) {
                stepped.add(r.series());
            }
        }
        Map<String, Curve> curves = new LinkedHashMap<>();
        Map<String, Double> ema = new java.util.HashMap<>();
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (Metrics.Row r : metrics.rows()) {
            if (!Double.isFinite(r.loss())) {
                continue;
            }
            int colour = indexOf(seriesNames, r.series());
            if (r.split().equals(STEP_SPLIT)) {
                // The raw losses, light, and their moving average over them: what TensorBoard users look for.
                curve(curves, label(r.series(), "train (raw)", seriesNames.size()), colour, false, true).add(r.step(), r.loss());
                double s = ema.containsKey(r.series()) ? SMOOTHING * ema.get(r.series()) + (1 - SMOOTHING) * r.loss() : r.loss();
                ema.put(r.series(), s);
                curve(curves, label(r.series(), "train (smoothed)", seriesNames.size()), colour, false, false).add(r.step(), s);
            } else if (r.split().equals("train") && stepped.contains(r.series())) {
                continue;
            } else {
                boolean train = r.split().equals("train");
                curve(curves, label(r.series(), r.split(), seriesNames.size()), colour, !train, false).add(r.step(), r.loss());
            }
            if (r.loss() > 0) {
                min = Math.min(min, r.loss());
            }
            max = Math.max(max, r.loss());
        }
        // The legend by series, and in each its training curves (raw, then smoothed or per epoch) before its held-out one,
        // whichever row came first (the GPT evaluates both splits at step 0, before its first step).
        java.util.List<Curve> ordered = new java.util.ArrayList<>(curves.values());
        ordered.sort(java.util.Comparator.comparingInt((Curve c) -> c.colour()).thenComparingInt(c -> c.light() ? 0 : c.dashed() ? 2 : 1));
        XYSeriesCollection data = new XYSeriesCollection();
        ordered.forEach(c -> data.addSeries(c.points()));
        boolean log = min > 0 && min < Double.POSITIVE_INFINITY && max / min > 20
                && metrics.rows().stream().allMatch(r -> !Double.isFinite(r.loss()) || r.loss() > 0);
        NumberAxis x = new NumberAxis("step");
        x.setAutoRangeIncludesZero(false);
        // Steps are whole numbers: integer ticks, never 1.6E1.
        x.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        x.setNumberFormatOverride(new java.text.DecimalFormat("#,##0"));
        XYPlot plot;
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        int i = 0;
        for (Curve c : ordered) {
            Color base = PALETTE[c.colour() % PALETTE.length];
            renderer.setSeriesPaint(i, c.light() ? new Color(base.getRed(), base.getGreen(), base.getBlue(), 70) : base);
            renderer.setSeriesStroke(i, c.light() ? new BasicStroke(1.0f) : !c.dashed() ? new BasicStroke(1.8f)
                    : new BasicStroke(2.2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 1f, new float[] {6f, 4f}, 0f));
            if (!c.light() && c.points().getItemCount() <= MARKERS_UP_TO) {
                renderer.setSeriesShapesVisible(i, true);
                renderer.setSeriesShape(i, !c.dashed() ? new java.awt.geom.Ellipse2D.Double(-3.5, -3.5, 7, 7)
                        : new java.awt.geom.Rectangle2D.Double(-3.5, -3.5, 7, 7));
            }
            i++;
        }
        if (log) {
            plot = new XYPlot(data, x, new OneTwoFiveLogAxis("loss (log scale)", min), renderer);
        } else {
            // The range the curves span (and a margin), not from zero: a loss that falls from 4.2 to 1.9 fills the chart.
            NumberAxis y = new NumberAxis("loss");
            y.setAutoRangeIncludesZero(false);
            plot = new XYPlot(data, x, y, renderer);
        }
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xDD, 0xDD, 0xDD));
        plot.setRangeGridlinePaint(new Color(0xDD, 0xDD, 0xDD));
        return titled(plot, title, subtitle);
    }

    private static XYSeries curve(Map<String, Curve> curves, String key, int colour, boolean dashed, boolean light) {
        return curves.computeIfAbsent(key, k -> new Curve(new XYSeries(k, false, true), colour, dashed, light)).points();
    }

    /**
     * A curve's name in the legend: the split alone ("train", "val", "test") when the run has one series, else the
     * series and the split ("buggy val"); never "train (train)".
     */
    static String label(String series, String split, int seriesCount) {
        return seriesCount <= 1 || series.equals(split) ? split : series + " " + split;
    }

    private static int indexOf(java.util.Set<String> names, String name) {
        int i = 0;
        for (String n : names) {
            if (n.equals(name)) {
                return i;
            }
            i++;
        }
        return 0;
    }

    /** A log axis whose ticks sit at 1, 2 and 5 times the powers of ten, labelled as plain numbers (0.02, 0.5, 10). */
    static final class OneTwoFiveLogAxis extends LogAxis {
        private static final long serialVersionUID = 1L;

        OneTwoFiveLogAxis(String label, double min) {
            super(label);
            setBase(10);
            setSmallestValue(min / 2);
        }

        @Override
        protected java.util.List<org.jfree.chart.axis.ValueTick> refreshTicksVertical(java.awt.Graphics2D g2,
                java.awt.geom.Rectangle2D dataArea, org.jfree.chart.ui.RectangleEdge edge) {
            java.util.List<org.jfree.chart.axis.ValueTick> ticks = new java.util.ArrayList<>();
            double lo = getLowerBound();
            double hi = getUpperBound();
            for (double v : ticks(lo, hi)) {
                ticks.add(new org.jfree.chart.axis.NumberTick(v, format(v), org.jfree.chart.ui.TextAnchor.CENTER_RIGHT,
                        org.jfree.chart.ui.TextAnchor.CENTER, 0.0));
            }
            return ticks;
        }

        /** The 1-2-5 values in [lo, hi]: each of 1, 2 and 5 per decade, or only the 1s when there are many decades. */
        static java.util.List<Double> ticks(double lo, double hi) {
            java.util.List<Double> out = new java.util.ArrayList<>();
            if (!(lo > 0) || !(hi > lo)) {
                return out;
            }
            int from = (int) Math.floor(Math.log10(lo));
            int to = (int) Math.ceil(Math.log10(hi));
            double[] steps = to - from > 6 ? new double[] {1} : new double[] {1, 2, 5};
            for (int e = from; e <= to; e++) {
                for (double m : steps) {
                    double v = m * Math.pow(10, e);
                    if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) {
                        out.add(v);
                    }
                }
            }
            return out;
        }

        static String format(double v) {
            java.math.BigDecimal d = new java.math.BigDecimal(v).round(new java.math.MathContext(1));
            return d.stripTrailingZeros().toPlainString();
        }
    }

    /** A chart of {@code plot} on white with a bold title, the subtitle (if any) below it, and a legend: the look of every jgrad chart. */
    public static JFreeChart titled(XYPlot plot, String title, String subtitle) {
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        if (subtitle != null && !subtitle.isEmpty()) {
            chart.addSubtitle(new TextTitle(subtitle, new Font(Font.SANS_SERIF, Font.PLAIN, 12)));
        }
        return chart;
    }

    /** Renders the chart to a PNG, written atomically. */
    public static void write(JFreeChart chart, Path png, int width, int height) throws IOException {
        AtomicFile.write(png, png(chart, width, height));
    }

    /** What {@link #write} writes: for a chart saved together with other files of a run. */
    public static AtomicFile.Writer png(JFreeChart chart, int width, int height) {
        return out -> ChartUtils.writeChartAsPNG(out, chart, width, height);
    }

    /** Writes the chart of {@code metrics} as a 960 x 600 PNG, atomically. */
    public static void write(Metrics metrics, String title, String subtitle, Path png) throws IOException {
        AtomicFile.write(png, writer(metrics, title, subtitle));
    }

    /** What {@link #write} writes, for a chart saved together with other files. */
    public static AtomicFile.Writer writer(Metrics metrics, String title, String subtitle) {
        return png(chart(metrics, title, subtitle), 960, 600);
    }
}
