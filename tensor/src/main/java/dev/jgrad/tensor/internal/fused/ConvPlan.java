package dev.jgrad.tensor.internal.fused;

import dev.jgrad.tensor.internal.kernels.ConvGeometry;
import dev.jgrad.tensor.internal.kernels.Kernels;
import dev.jgrad.tensor.internal.kernels.Tuning;

/**
 * How one call of {@link FusedConv2d} runs, chosen once from the geometry and the shapes: how the batch is cut into
 * chunks, and the strategy of each step. Every path choice of the convolution is made here, with its reason, so the
 * kernels are loops over chunks that follow the plan, and tests name the plan a geometry gets.
 *
 * @param chunks         how many chunks the batch is cut into (the threads take whole chunks; a chunk of one sample
 *                       writes its product straight into the output)
 * @param weightParts    backward: how many runs of chunks sum the weight's gradient into buffers of their own, added in
 *                       order afterwards (fixed by the shape, so the result does not depend on the thread count)
 * @param columns        forward: where the product's columns come from
 * @param samples        backward: how the output gradient is read
 * @param weightGradient backward: how the weight's gradient is made (NONE where it is not asked for)
 * @param inputGradient  backward: how the input's gradient is made (NONE where it is not asked for)
 * @param col2im         backward: how column gradients go back into the input's gradient
 * @param vectorRows     im2col copies unpadded unit-stride rows a vector at a time
 */
public record ConvPlan(int chunks, int weightParts, Columns columns, Samples samples, WeightGradient weightGradient,
                       InputGradient inputGradient, Col2im col2im, boolean vectorRows) {
    /** Where the forward's product reads its columns. */
    public enum Columns {
        /** The weight packed once for all chunks; each chunk's columns packed from the input straight into the product's B. */
        PACKED_FROM_INPUT,
        /** im2col lays the chunk's columns out (the weight packed once where there are several chunks). */
        IM2COL
    }

    /** How the backward reads the output gradient. */
    public enum Samples {
        /** No input gradient and no window kernel (a first layer): per sample, the output gradient's blocks in place. */
        BLOCKS_IN_PLACE,
        /** Each chunk's output gradient copied from its strides into (OC, G P), its bias sums taken on the way. */
        CHUNK_COPY
    }

    /** How the weight's gradient is summed. */
    public enum WeightGradient {
        /** Not asked for. */
        NONE,
        /** Per sample: the output gradient's block times the sample's columns. */
        PER_SAMPLE,
        /** A 3 x 3 window at unit strides: the chunk's input read in place by a window micro-kernel, no columns; transposed. */
        WINDOWED,
        /** The chunk's columns (im2col) times its output gradient, transposed. */
        COLUMNS
    }

    /** How the input's gradient is made from W^T and the chunk's output gradient. */
    public enum InputGradient {
        /** Not asked for. */
        NONE,
        /** W^T packed once for every chunk. */
        PACKED_WEIGHT,
        /** One chunk: the product packs W^T itself. */
        PER_CHUNK
    }

    /** How the column gradients are added back into the input's gradient. */
    public enum Col2im {
        /** Not asked for. */
        NONE,
        /** Each input row written once as a vector: the sum of the column rows that read it, shifted into place. */
        VECTOR_ROWS,
        /** A row of column gradients at a time. */
        ROWS
    }

    /**
     * Floats past a chunk's columns in their buffer: im2col's whole-vector row copies may write that far past the last
     * row. Column gradients also have as many before them: col2im's shifted whole-vector loads read up to a vector
     * outside their rows.
     */
    public static final int SLACK = 64;

    /** The forward's plan for {@code n} samples of {@code c} channels. */
    public static ConvPlan forward(ConvGeometry geo, int n, int c) {
        int per = c * geo.kh() * geo.kw();
        int chunks = per <= Tuning.CONV_PER_SAMPLE_MAX_K ? n : chunks(per, geo.positions(), n);
        boolean vector = vectorized();
        // Packing from the input needs the weight packed once, which pays with several chunks.
        Columns columns = chunks > 1 && Kernels.CONVOLUTION.packsColumns(geo, per) ? Columns.PACKED_FROM_INPUT : Columns.IM2COL;
        return new ConvPlan(chunks, 0, columns, null, WeightGradient.NONE, InputGradient.NONE, Col2im.NONE, vector);
    }

    /**
     * The backward's plan for the gradients {@code needs} asks for (input, weight, bias), from {@code n} samples of
     * {@code c} channels into {@code oc} over an input of width {@code w}.
     */
    public static ConvPlan backward(ConvGeometry geo, int n, int c, int oc, int w, boolean[] needs) {
        int per = c * geo.kh() * geo.kw();
        int chunks = chunks(per, geo.positions(), n);
        int parts = Math.max(1, Math.min(chunks, Math.max(Tuning.CONV_WEIGHT_PARTS, Tuning.CONV_WEIGHT_PART_FLOATS / Math.max(1, oc * per))));
        boolean vector = vectorized();
        // A 3 x 3 window with unit strides has its weight gradient summed from the input in place; not for few input
        // channels, where transposing the output gradient for it costs as much as the product.
        boolean windowed = Kernels.CONVOLUTION.windowGradient(geo) && per > Tuning.CONV_PER_SAMPLE_MAX_K;
        Samples samples = !needs[0] && !windowed ? Samples.BLOCKS_IN_PLACE : Samples.CHUNK_COPY;
        WeightGradient wg = !needs[1] ? WeightGradient.NONE
                : windowed ? WeightGradient.WINDOWED : samples == Samples.BLOCKS_IN_PLACE ? WeightGradient.PER_SAMPLE : WeightGradient.COLUMNS;
        InputGradient ig = !needs[0] ? InputGradient.NONE : chunks > 1 ? InputGradient.PACKED_WEIGHT : InputGradient.PER_CHUNK;
        Col2im back = !needs[0] ? Col2im.NONE : Kernels.CONVOLUTION.rowCol2im(geo, w, SLACK, SLACK) ? Col2im.VECTOR_ROWS : Col2im.ROWS;
        return new ConvPlan(chunks, parts, null, samples, wg, ig, back, vector);
    }

    /** Forward: whether the weight is packed once for every chunk (the threads take whole chunks, so with several it pays). */
    boolean packsWeight() {
        return chunks > 1;
    }

    /** Whether the weight's gradient is summed transposed, (C KH KW, OC), and so is transposed back at the end. */
    boolean transposedWeightGradient() {
        return weightGradient == WeightGradient.WINDOWED || weightGradient == WeightGradient.COLUMNS;
    }

    /** Whether the kernels in use have vectors: the paths that read windows or rows a vector at a time need them. */
    private static boolean vectorized() {
        return Kernels.PROVIDER.vectorLanes() > 0;
    }

    /**
     * How many chunks the n samples are cut into: as few as keep each chunk's columns within {@link Tuning#CONV_CHUNK_FLOATS}
     * (a chunk holds one sample at least). Chunk t holds samples {@code [first(t), first(t + 1))}, so the chunks
     * differ by a sample at most (64 samples at 7 a chunk would leave a last chunk of one, and a thread idle while
     * the other works).
     */
    static int chunks(int per, int p, int n) {
        int most = (int) Math.max(1, Math.min(n, Tuning.CONV_CHUNK_FLOATS / Math.max(1L, (long) per * p)));
        return (n + most - 1) / most;
    }

    /** The first sample of chunk t over n samples (n for t = chunks). */
    int first(int t, int n) {
        return (int) ((long) n * t / chunks);
    }
}
