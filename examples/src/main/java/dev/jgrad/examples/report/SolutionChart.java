package dev.jgrad.examples.report;

import dev.jgrad.train.LossChart;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.nn.io.AtomicFile;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.CombinedRangeXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.PaintScale;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.DefaultXYZDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;

/**
 * A PDE solver's result beside the exact solution. On a line (points (m, 1)): the prediction and the exact solution
 * above, their difference below. On a square (points (m, 2) of a regular grid): three maps side by side, the
 * prediction and the exact solution on one colour scale and the error on a scale of its own, centred on zero.
 */
public final class SolutionChart {
    private static final Color EXACT = new Color(0x55, 0x55, 0x55);
    private static final Color PREDICTED = new Color(0x1F, 0x77, 0xB4);
    private static final Color ERROR = new Color(0xD6, 0x27, 0x28);

    private SolutionChart() {
    }

    /** @param points (m, 1) or (m, 2) @param predicted (m, 1) @param exact (m, 1) */
    public static AtomicFile.Writer png(Tensor points, Tensor predicted, Tensor exact, String title, String subtitle) {
        double[] p = points.toDoubleArray();
        double[] u = predicted.toDoubleArray();
        double[] e = exact.toDoubleArray();
        JFreeChart chart = points.size(1) == 1 ? line(p, u, e) : maps(p, u, e);
        chart.setTitle(new TextTitle(title, new Font("SansSerif", Font.BOLD, 16)));
        chart.addSubtitle(new TextTitle(subtitle));
        chart.setBackgroundPaint(Color.WHITE);
        return LossChart.png(chart, points.size(1) == 1 ? 800 : 1200, points.size(1) == 1 ? 700 : 460);
    }

    private static JFreeChart line(double[] x, double[] u, double[] exact) {
        XYSeries truth = new XYSeries("exact");
        XYSeries pred = new XYSeries("prediction");
        XYSeries err = new XYSeries("prediction - exact");
        for (int i = 0; i < x.length; i++) {
            truth.add(x[i], exact[i]);
            pred.add(x[i], u[i]);
            err.add(x[i], u[i] - exact[i]);
        }
        XYSeriesCollection top = new XYSeriesCollection();
        top.addSeries(truth);
        top.addSeries(pred);
        XYLineAndShapeRenderer lines = new XYLineAndShapeRenderer(true, false);
        lines.setSeriesPaint(0, EXACT);
        lines.setSeriesStroke(0, new BasicStroke(5f));
        lines.setSeriesPaint(1, PREDICTED);
        lines.setSeriesStroke(1, new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {9f, 6f}, 0f));
        XYPlot solution = new XYPlot(top, null, new NumberAxis("u(x)"), lines);
        // The prediction is drawn over the exact solution, which it should hide but for the dashes' gaps.
        solution.setSeriesRenderingOrder(org.jfree.chart.plot.SeriesRenderingOrder.FORWARD);
        XYLineAndShapeRenderer errLine = new XYLineAndShapeRenderer(true, false);
        errLine.setSeriesPaint(0, ERROR);
        errLine.setSeriesStroke(0, new BasicStroke(1.5f));
        NumberAxis errAxis = new NumberAxis("error");
        errAxis.setAutoRangeIncludesZero(true);
        errAxis.setNumberFormatOverride(new Scientific());
        XYPlot error = new XYPlot(new XYSeriesCollection(err), null, errAxis, errLine);
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(new NumberAxis("x"));
        plot.add(solution, 3);
        plot.add(error, 2);
        for (XYPlot sub : new XYPlot[] {solution, error}) {
            sub.setBackgroundPaint(Color.WHITE);
            sub.setDomainGridlinePaint(Color.LIGHT_GRAY);
            sub.setRangeGridlinePaint(Color.LIGHT_GRAY);
        }
        return new JFreeChart(null, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    }

    private static JFreeChart maps(double[] p, double[] u, double[] exact) {
        int m = u.length;
        int side = (int) Math.round(Math.sqrt(m));
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        double worst = 0;
        double[] err = new double[m];
        for (int i = 0; i < m; i++) {
            lo = Math.min(lo, Math.min(exact[i], u[i]));
            hi = Math.max(hi, Math.max(exact[i], u[i]));
            err[i] = u[i] - exact[i];
            worst = Math.max(worst, Math.abs(err[i]));
        }
        double cell = side > 1 ? 1.0 / (side - 1) : 1.0;
        CombinedRangeXYPlot plot = new CombinedRangeXYPlot(new NumberAxis("y"));
        plot.add(map("prediction", p, u, cell, new Ramp(lo, hi, false)));
        plot.add(map("exact", p, exact, cell, new Ramp(lo, hi, false)));
        plot.add(map(String.format(java.util.Locale.ROOT, "prediction - exact (red +, blue -, max |%.1e|)", worst), p, err, cell,
                new Ramp(-Math.max(worst, 1e-12), Math.max(worst, 1e-12), true)));
        plot.setGap(24);
        return new JFreeChart(null, JFreeChart.DEFAULT_TITLE_FONT, plot, false);
    }

    private static XYPlot map(String label, double[] p, double[] z, double cell, PaintScale scale) {
        int m = z.length;
        double[][] xyz = new double[3][m];
        for (int i = 0; i < m; i++) {
            xyz[0][i] = p[2 * i];
            xyz[1][i] = p[2 * i + 1];
            xyz[2][i] = z[i];
        }
        DefaultXYZDataset data = new DefaultXYZDataset();
        data.addSeries(label, xyz);
        XYBlockRenderer blocks = new XYBlockRenderer();
        blocks.setBlockWidth(cell);
        blocks.setBlockHeight(cell);
        blocks.setPaintScale(scale);
        NumberAxis x = new NumberAxis(label);
        x.setRange(-cell / 2, 1 + cell / 2);
        XYPlot plot = new XYPlot(data, x, null, blocks);
        plot.setBackgroundPaint(Color.WHITE);
        return plot;
    }

    /** White to dark blue over [lo, hi]; or, centred, blue below zero, white at zero, red above. */
    private static final class Ramp implements PaintScale {
        private final double lo;
        private final double hi;
        private final boolean centred;

        Ramp(double lo, double hi, boolean centred) {
            this.lo = lo;
            this.hi = hi > lo ? hi : lo + 1e-12;
            this.centred = centred;
        }

        @Override
        public double getLowerBound() {
            return lo;
        }

        @Override
        public double getUpperBound() {
            return hi;
        }

        @Override
        public Paint getPaint(double v) {
            double t = Math.max(0, Math.min(1, (v - lo) / (hi - lo)));
            if (!centred) {
                return mix(Color.WHITE, new Color(0x08, 0x30, 0x6B), t);
            }
            return t < 0.5 ? mix(Color.WHITE, new Color(0x21, 0x66, 0xAC), (0.5 - t) * 2) : mix(Color.WHITE, new Color(0xB2, 0x18, 0x2B), (t - 0.5) * 2);
        }

        private static Color mix(Color a, Color b, double t) {
            return new Color((int) Math.round(a.getRed() + (b.getRed() - a.getRed()) * t),
                    (int) Math.round(a.getGreen() + (b.getGreen() - a.getGreen()) * t),
                    (int) Math.round(a.getBlue() + (b.getBlue() - a.getBlue()) * t));
        }
    }

    /** Tick labels such as 2.5e-04 and 0 (the axis's own format writes 2.5E-4 and 0E0). */
    private static final class Scientific extends java.text.NumberFormat {
        @Override
        public StringBuffer format(double v, StringBuffer to, java.text.FieldPosition pos) {
            return to.append(v == 0 ? "0" : String.format(java.util.Locale.ROOT, "%.1e", v));
        }

        @Override
        public StringBuffer format(long v, StringBuffer to, java.text.FieldPosition pos) {
            return format((double) v, to, pos);
        }

        @Override
        public Number parse(String source, java.text.ParsePosition pos) {
            return null;
        }
    }
}
