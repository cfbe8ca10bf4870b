package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.internal.kernels.ConvGeometry;
import dev.jgrad.tensor.Backend;
import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Tuning;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which plan a convolution gets, by geometry, in each of the build's test executions (vector paths where the kernels
 * have vectors, plain paths where they do not); ConvolutionTest (nn) checks every plan's numbers against the float64
 * composite.
 */
class ConvPlanTest {
    private static final boolean VECTOR = Backend.vectorized();

    /** A k x k convolution at stride s, padding pad, over (h, w) planes. */
    private static ConvGeometry geo(int k, int s, int pad, int h, int w) {
        int oh = (h + 2 * pad - k) / s + 1;
        int ow = (w + 2 * pad - k) / s + 1;
        return new ConvGeometry(k, k, s, s, pad, pad, 1, 1, oh, ow);
    }

    @Test
    void aFirstLayerRunsAChunkPerSample() {
        ConvPlan f = ConvPlan.forward(geo(3, 1, 0, 28, 28), 64, 1);
        assertEquals(64, f.chunks(), "nine columns per position: one product per sample");
        ConvPlan b = ConvPlan.backward(geo(3, 1, 0, 28, 28), 64, 1, 32, 28, new boolean[] {false, true, true});
        assertEquals(ConvPlan.Samples.BLOCKS_IN_PLACE, b.samples(), "no input gradient and too few channels for the window kernel");
        assertEquals(ConvPlan.WeightGradient.PER_SAMPLE, b.weightGradient());
        assertEquals(ConvPlan.InputGradient.NONE, b.inputGradient());
        assertEquals(ConvPlan.Col2im.NONE, b.col2im());
    }

    @Test
    void aSecondLayerRunsChunksAboutTheCacheAndItsVectorPaths() {
        ConvGeometry g = geo(3, 1, 0, 13, 13);
        int per = 32 * 9;
        ConvPlan f = ConvPlan.forward(g, 64, 32);
        int most = (64 + f.chunks() - 1) / f.chunks();
        assertTrue((long) most * per * g.positions() <= Tuning.CONV_CHUNK_FLOATS, "a chunk's columns fit the chunk size");
        int fewer = f.chunks() - 1;
        assertTrue(fewer == 0 || (long) ((64 + fewer - 1) / fewer) * per * g.positions() > Tuning.CONV_CHUNK_FLOATS, "as few chunks as fit");
        assertEquals(VECTOR ? ConvPlan.Columns.PACKED_FROM_INPUT : ConvPlan.Columns.IM2COL, f.columns());
        ConvPlan b = ConvPlan.backward(g, 64, 32, 64, 13, new boolean[] {true, true, true});
        assertEquals(f.chunks(), b.chunks());
        assertEquals(ConvPlan.Samples.CHUNK_COPY, b.samples());
        assertEquals(VECTOR && Kernels.PROVIDER.vectorLanes() >= 16 ? ConvPlan.WeightGradient.WINDOWED : ConvPlan.WeightGradient.COLUMNS,
                b.weightGradient(), "the window's 18 accumulators need AVX-512's registers");
        assertEquals(ConvPlan.InputGradient.PACKED_WEIGHT, b.inputGradient());
        boolean rowsFit = Kernels.PROVIDER.vectorLanes() >= 13;
        assertEquals(rowsFit ? ConvPlan.Col2im.VECTOR_ROWS : ConvPlan.Col2im.ROWS, b.col2im(), "13-wide input rows fit a 16-lane vector");
        assertTrue(b.transposedWeightGradient());
        assertTrue(b.weightParts() >= 1 && b.weightParts() <= b.chunks());
    }

    @Test
    void stridedAndSingleSampleConvolutionsTakeTheGeneralPaths() {
        ConvPlan b = ConvPlan.backward(geo(3, 2, 1, 14, 14), 8, 32, 64, 14, new boolean[] {true, true, false});
        assertEquals(ConvPlan.WeightGradient.COLUMNS, b.weightGradient(), "the window kernel needs unit strides");
        ConvPlan one = ConvPlan.backward(geo(3, 1, 1, 14, 14), 1, 32, 64, 14, new boolean[] {true, false, false});
        assertEquals(1, one.chunks());
        assertEquals(ConvPlan.InputGradient.PER_CHUNK, one.inputGradient(), "one chunk: W^T is not packed ahead");
        assertEquals(ConvPlan.WeightGradient.NONE, one.weightGradient());
        ConvPlan f = ConvPlan.forward(geo(3, 1, 1, 14, 14), 1, 32);
        assertEquals(ConvPlan.Columns.IM2COL, f.columns(), "packing from the input needs the weight packed, which pays with several chunks");
    }

    @Test
    void chunksDifferByASampleAtMost() {
        ConvPlan f = ConvPlan.forward(geo(3, 1, 0, 13, 13), 64, 32);
        int least = Integer.MAX_VALUE;
        int most = 0;
        for (int t = 0; t < f.chunks(); t++) {
            int size = f.first(t + 1, 64) - f.first(t, 64);
            least = Math.min(least, size);
            most = Math.max(most, size);
        }
        assertEquals(64, f.first(f.chunks(), 64));
        assertTrue(most - least <= 1, least + ".." + most);
    }
}
