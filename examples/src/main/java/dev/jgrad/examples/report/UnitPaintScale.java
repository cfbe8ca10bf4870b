package dev.jgrad.examples.report;

import org.jfree.chart.renderer.PaintScale;

import java.awt.Paint;

/** A colour scale over [0, 1] for the block charts; values outside are clamped to the ends. */
abstract class UnitPaintScale implements PaintScale {
    @Override
    public double getLowerBound() {
        return 0;
    }

    @Override
    public double getUpperBound() {
        return 1;
    }

    @Override
    public Paint getPaint(double value) {
        return paint(Math.max(0, Math.min(1, value)));
    }

    /** The colour of {@code v} in [0, 1]. */
    abstract Paint paint(double v);
}
