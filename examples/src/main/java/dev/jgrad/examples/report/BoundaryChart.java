package dev.jgrad.examples.report;

import dev.jgrad.train.LossChart;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.nn.io.AtomicFile;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.DefaultXYZDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.Color;
import java.awt.Paint;
import java.awt.geom.Ellipse2D;
import java.util.function.Function;

/** A 2-d classifier's decision boundary: the probability of class 1 on a grid, shaded, with the labelled points on top. */
public final class BoundaryChart {
    private static final int GRID = 160;

    private BoundaryChart() {
    }

    /**
     * @param probability maps points (n, 2) to the probability of class 1 (n)
     * @param points points (n, 2) to draw
     * @param labels their classes 0 or 1 (n)
     */
    public static AtomicFile.Writer png(Function<Tensor, Tensor> probability, Tensor points, Tensor labels, String title, String subtitle) {
        float[] p = points.toFloatArray();
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (float v : p) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        double pad = 0.1 * (hi - lo);
        lo -= pad;
        hi += pad;
        double cell = (hi - lo) / GRID;
        float[] grid = new float[2 * GRID * GRID];
        for (int i = 0; i < GRID; i++) {
            for (int j = 0; j < GRID; j++) {
                grid[2 * (i * GRID + j)] = (float) (lo + (j + 0.5) * cell);
                grid[2 * (i * GRID + j) + 1] = (float) (lo + (i + 0.5) * cell);
            }
        }
        float[] prob = probability.apply(Tensor.of(grid, GRID * GRID, 2)).toFloatArray();
        double[][] xyz = new double[3][GRID * GRID];
        for (int k = 0; k < GRID * GRID; k++) {
            xyz[0][k] = grid[2 * k];
            xyz[1][k] = grid[2 * k + 1];
            xyz[2][k] = prob[k];
        }
        DefaultXYZDataset field = new DefaultXYZDataset();
        field.addSeries("p(class 1)", xyz);
        XYBlockRenderer blocks = new XYBlockRenderer();
        blocks.setBlockWidth(cell);
        blocks.setBlockHeight(cell);
        blocks.setPaintScale(new TwoColourScale());
        NumberAxis x = new NumberAxis("x1");
        NumberAxis y = new NumberAxis("x2");
        x.setRange(lo, hi);
        y.setRange(lo, hi);
        XYPlot plot = new XYPlot(field, x, y, blocks);

        XYSeries class0 = new XYSeries("class 0");
        XYSeries class1 = new XYSeries("class 1");
        long[] lab = labels.toLongArray();
        for (int k = 0; k < lab.length; k++) {
            (lab[k] == 0 ? class0 : class1).add(p[2 * k], p[2 * k + 1]);
        }
        XYSeriesCollection scatter = new XYSeriesCollection();
        scatter.addSeries(class0);
        scatter.addSeries(class1);
        XYLineAndShapeRenderer dots = new XYLineAndShapeRenderer(false, true);
        dots.setSeriesPaint(0, new Color(0x1F, 0x4E, 0x9A));
        dots.setSeriesPaint(1, new Color(0xB2, 0x22, 0x22));
        dots.setSeriesShape(0, new Ellipse2D.Double(-2.5, -2.5, 5, 5));
        dots.setSeriesShape(1, new Ellipse2D.Double(-2.5, -2.5, 5, 5));
        plot.setDataset(1, scatter);
        plot.setRenderer(1, dots);
        plot.setDatasetRenderingOrder(org.jfree.chart.plot.DatasetRenderingOrder.FORWARD);
        plot.setBackgroundPaint(Color.WHITE);
        return LossChart.png(LossChart.titled(plot, title, subtitle), 720, 760);
    }

    /** Light blue for class 0, light red for class 1, white at the boundary. */
    private static final class TwoColourScale extends UnitPaintScale {
        @Override
        Paint paint(double v) {
            double a = Math.abs(v - 0.5) * 2;
            Color c = v < 0.5 ? new Color(0x9E, 0xC5, 0xF0) : new Color(0xF2, 0xA6, 0xA6);
            int r = (int) Math.round(255 + (c.getRed() - 255) * a);
            int g = (int) Math.round(255 + (c.getGreen() - 255) * a);
            int b = (int) Math.round(255 + (c.getBlue() - 255) * a);
            return new Color(r, g, b);
        }
    }
}
