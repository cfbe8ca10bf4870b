package dev.jgrad.examples.report;

import dev.jgrad.nn.io.AtomicFile;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
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

    private LossChart() {
    }

    public static JFreeChart chart(Metrics metrics, String title, String subtitle) {
        Map<String, XYSeries> curves = new LinkedHashMap<>();
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (Metrics.Row r : metrics.rows()) {
            if (!Double.isFinite(r.loss())) {
                continue;
            }
            String key = r.series() + " (" + r.split() + ")";
            curves.computeIfAbsent(key, k -> new XYSeries(k, false, true)).add(r.step(), r.loss());
            if (r.loss() > 0) {
                min = Math.min(min, r.loss());
            }
            max = Math.max(max, r.loss());
        }
        XYSeriesCollection data = new XYSeriesCollection();
        curves.values().forEach(data::addSeries);
        boolean log = min > 0 && min < Double.POSITIVE_INFINITY && max / min > 20
                && metrics.rows().stream().allMatch(r -> !Double.isFinite(r.loss()) || r.loss() > 0);
        NumberAxis x = new NumberAxis("step");
        x.setAutoRangeIncludesZero(false);
        XYPlot plot;
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        int i = 0;
        for (String key : curves.keySet()) {
            renderer.setSeriesPaint(i, PALETTE[(i / 2) % PALETTE.length]);
            boolean val = !key.endsWith("(train)");
            renderer.setSeriesStroke(i, val
                    ? new BasicStroke(2.2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 1f, new float[] {6f, 4f}, 0f)
                    : new BasicStroke(1.6f));
            i++;
        }
        if (log) {
            LogAxis y = new LogAxis("loss (log scale)");
            y.setBase(10);
            y.setSmallestValue(min / 2);
            // Plain numbers (0.05, 0.1, 1) instead of powers of ten with fractional exponents.
            y.setNumberFormatOverride(new java.text.DecimalFormat("0.####"));
            plot = new XYPlot(data, x, y, renderer);
        } else {
            NumberAxis y = new NumberAxis("loss");
            y.setAutoRangeIncludesZero(true);
            plot = new XYPlot(data, x, y, renderer);
        }
        if (metrics.rows().stream().mapToLong(Metrics.Row::step).max().orElse(0) < 10) {
            x.setTickUnit(new NumberTickUnit(1));
        }
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xDD, 0xDD, 0xDD));
        plot.setRangeGridlinePaint(new Color(0xDD, 0xDD, 0xDD));
        return titled(plot, title, subtitle);
    }

    /** A chart of {@code plot} on white with a bold title, the subtitle (if any) below it, and a legend: the look of every jgrad chart. */
    static JFreeChart titled(XYPlot plot, String title, String subtitle) {
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        if (subtitle != null && !subtitle.isEmpty()) {
            chart.addSubtitle(new TextTitle(subtitle, new Font(Font.SANS_SERIF, Font.PLAIN, 12)));
        }
        return chart;
    }

    /** Renders the chart to a PNG, written atomically. */
    public static void write(JFreeChart chart, Path png, int width, int height) throws IOException {
        AtomicFile.write(png, out -> ChartUtils.writeChartAsPNG(out, chart, width, height));
    }

    public static void write(Metrics metrics, String title, String subtitle, Path png) throws IOException {
        write(chart(metrics, title, subtitle), png, 960, 600);
    }
}
