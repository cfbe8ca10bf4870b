package dev.jgrad.examples.report;

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
}
