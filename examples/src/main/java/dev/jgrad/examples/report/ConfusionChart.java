package dev.jgrad.examples.report;

import dev.jgrad.train.LossChart;
import dev.jgrad.nn.io.AtomicFile;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.data.xy.DefaultXYZDataset;

import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;

/**
 * A confusion matrix as a PNG: true class down, predicted class across, each cell shaded by the share of
 * its true class that was predicted so and labelled with its count.
 */
public final class ConfusionChart {
    private ConfusionChart() {
    }

    /** The chart as a PNG of 820 x 820 pixels; {@code counts[t][p]}: how many samples of true class t were predicted as p. */
    public static AtomicFile.Writer png(long[][] counts, String[] classes, String title, String subtitle) {
        return LossChart.png(chart(counts, classes, title, subtitle), SIZE, SIZE);
    }

    /** The chart's width and height in pixels. */
    public static final int SIZE = 820;

    /** The chart itself, for a PNG or an image: {@code counts[t][p]}, how many samples of true class t were predicted as p. */
    public static JFreeChart chart(long[][] counts, String[] classes, String title, String subtitle) {
        int k = classes.length;
        double[][] xyz = new double[3][k * k];
        XYPlot plot = new XYPlot();
        for (int t = 0; t < k; t++) {
            long total = 0;
            for (long c : counts[t]) {
                total += c;
            }
            for (int p = 0; p < k; p++) {
                int i = t * k + p;
                xyz[0][i] = p;
                xyz[1][i] = t;
                xyz[2][i] = total == 0 ? 0 : counts[t][p] / (double) total;
                XYTextAnnotation label = new XYTextAnnotation(Long.toString(counts[t][p]), p, t);
                label.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
                label.setPaint(xyz[2][i] > 0.55 ? Color.WHITE : Color.BLACK);
                plot.addAnnotation(label);
            }
        }
        DefaultXYZDataset data = new DefaultXYZDataset();
        data.addSeries("confusion", xyz);
        XYBlockRenderer blocks = new XYBlockRenderer();
        blocks.setPaintScale(new BlueScale());
        SymbolAxis predicted = new SymbolAxis("predicted class", classes);
        predicted.setVerticalTickLabels(true);
        SymbolAxis actual = new SymbolAxis("true class", classes);
        actual.setInverted(true);
        plot.setDataset(data);
        plot.setRenderer(blocks);
        plot.setDomainAxis(predicted);
        plot.setRangeAxis(actual);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinesVisible(false);
        plot.setRangeGridlinesVisible(false);
        JFreeChart chart = LossChart.titled(plot, title, subtitle);
        chart.removeLegend();
        return chart;
    }

    /** White (0) to dark blue (1). */
    private static final class BlueScale extends UnitPaintScale {
        @Override
        Paint paint(double v) {
            return new Color((int) Math.round(255 - 222 * v), (int) Math.round(255 - 180 * v), (int) Math.round(255 - 100 * v));
        }
    }
}
