package dev.jgrad.train;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a loss chart shows: legends that name curves plainly, a colour per series, markers on short curves, 1-2-5 log ticks. */
class LossChartTest {
    @Test
    void legendsNameTheSplitAloneForOneSeriesAndBothOtherwise() {
        assertEquals("train", LossChart.label("train", "train", 1));
        assertEquals("val", LossChart.label("mlp", "val", 1));
        assertEquals("buggy val", LossChart.label("buggy", "val", 2));
        assertEquals("test", LossChart.label("test", "test", 2));
    }

    @Test
    void logTicksSitAtOneTwoFiveWithPlainLabels() {
        List<Double> t = LossChart.OneTwoFiveLogAxis.ticks(0.0003, 12);
        assertEquals(List.of(5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0).size(), t.size(), t.toString());
        for (double v : t) {
            String s = LossChart.OneTwoFiveLogAxis.format(v);
            assertTrue(s.matches("0\\.0*[125]|[125]0*"), s);
        }
        assertEquals("0.0005", LossChart.OneTwoFiveLogAxis.format(t.get(0)));
        assertEquals("10", LossChart.OneTwoFiveLogAxis.format(t.get(t.size() - 1)));
        assertEquals(List.of(1.0, 10.0, 100.0, 1000.0, 1e4, 1e5, 1e6, 1e7), LossChart.OneTwoFiveLogAxis.ticks(0.9, 2e7),
                "past six decades, only the powers of ten");
    }

    @Test
    void aSeriesKeepsOneColourAcrossItsSplitsAndShortCurvesGetMarkers() {
        Metrics m = new Metrics();
        m.add(16, 1, "buggy", "train", 1.5);
        m.add(16, 1, "buggy", "val", 1.4);
        m.add(16, 1, "fixed", "train", 0.9);
        m.add(16, 1, "fixed", "val", 0.8);
        JFreeChart chart = LossChart.chart(m, "t", "s");
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer r = (XYLineAndShapeRenderer) plot.getRenderer();
        assertEquals("buggy train", plot.getDataset().getSeriesKey(0));
        assertEquals(r.getSeriesPaint(0), r.getSeriesPaint(1), "buggy train and buggy val share a colour");
        assertNotEquals(r.getSeriesPaint(0), r.getSeriesPaint(2), "buggy and fixed differ");
        assertTrue(r.getSeriesShapesVisible(0) && r.getSeriesShapesVisible(3), "a one-epoch run is drawn as points");
    }

    /** The GPT evaluates at step 0, before any step loss: its legend still reads train (raw), train (smoothed), val. */
    @Test
    void theLegendListsEachSeriesTrainingCurvesBeforeItsHeldOutOne() {
        Metrics m = new Metrics();
        m.add(0, 0, "gpt", "train", 4.2);
        m.add(0, 0, "gpt", "val", 4.2);
        m.add(10, 1, "gpt", "train_step", 3.9);
        m.add(20, 1, "gpt", "train_step", 3.1);
        m.add(20, 1, "gpt", "val", 3.0);
        XYPlot plot = LossChart.chart(m, "t", "s").getXYPlot();
        assertEquals(List.of("train (raw)", "train (smoothed)", "val"),
                List.of(plot.getDataset().getSeriesKey(0), plot.getDataset().getSeriesKey(1), plot.getDataset().getSeriesKey(2)));
        Metrics two = new Metrics();
        two.add(0, 0, "buggy", "val", 2.0);
        two.add(0, 0, "fixed", "val", 2.0);
        two.add(10, 1, "buggy", "train_step", 1.9);
        two.add(10, 1, "fixed", "train_step", 1.5);
        XYPlot p2 = LossChart.chart(two, "t", "s").getXYPlot();
        assertEquals(List.of("buggy train (raw)", "buggy train (smoothed)", "buggy val", "fixed train (raw)", "fixed train (smoothed)", "fixed val"),
                java.util.stream.IntStream.range(0, 6).mapToObj(i -> (String) p2.getDataset().getSeriesKey(i)).toList());
    }

    @Test
    void stepLossesAreDrawnRawAndLightWithTheirMovingAverageOverThem() {
        Metrics m = new Metrics();
        for (int step = 10; step <= 100; step += 10) {
            m.add(step, step <= 50 ? 1 : 2, "mlp", "train_step", step % 20 == 0 ? 1.0 : 2.0);
        }
        m.add(50, 1, "mlp", "train", 1.5);
        m.add(50, 1, "mlp", "test", 1.6);
        m.add(100, 2, "mlp", "train", 1.5);
        m.add(100, 2, "mlp", "test", 1.4);
        XYPlot plot = LossChart.chart(m, "t", "s").getXYPlot();
        java.util.List<Object> keys = new java.util.ArrayList<>();
        for (int i = 0; i < plot.getDataset().getSeriesCount(); i++) {
            keys.add(plot.getDataset().getSeriesKey(i));
        }
        assertEquals(java.util.List.of("train (raw)", "train (smoothed)", "test"), keys, "the per-epoch train mean gives way to the steps");
        XYLineAndShapeRenderer r = (XYLineAndShapeRenderer) plot.getRenderer();
        assertTrue(((java.awt.Color) r.getSeriesPaint(0)).getAlpha() < 255, "the raw curve is light");
        double first = plot.getDataset().getYValue(1, 0);
        double last = plot.getDataset().getYValue(1, 9);
        assertEquals(2.0, first, 0.0, "the average starts at the first value");
        assertTrue(last > 1.0 && last < 2.0, "and smooths the zig-zag: " + last);
    }
}
