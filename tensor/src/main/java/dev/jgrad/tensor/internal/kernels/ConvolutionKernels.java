package dev.jgrad.tensor.internal.kernels;

/**
 * The convolution's pieces that read windows or rows a vector at a time, a family of the kernel provider:
 * {@link PlainConvolution}, the reference, which computes each piece the plain way (im2col and packing, im2col and a
 * product, col2im by rows), and {@link VectorConvolution}, which computes the same numbers from the input in place. The
 * provider's is {@link Kernels#CONVOLUTION}; each piece says which geometries it serves, and the fused convolution's
 * plan takes a piece only where that family serves it (the reference serves none: where vectors are absent, the plans
 * keep their plain paths).
 */
public interface ConvolutionKernels {
    /** The reference pieces, which the plans fall back to (col2im) where the provider's do not serve a geometry. */
    ConvolutionKernels PLAIN = PlainConvolution.INSTANCE;

    String name();

    /** Whether {@link #packColumns} is the forward's path for this geometry and {@code per} column rows. */
    boolean packsColumns(ConvGeometry g, int per);

    /** The floats {@link #packColumns} writes for {@code per} column rows of {@code gp} positions in slivers of {@code nr}. */
    int packedColumnsSize(int per, int gp, int nr);

    /**
     * The columns {@code (C KH KW, G OH OW)} of the {@code g} samples {@code in} reads, in the packed layout of the forward
     * product's B: slivers of {@code nr} positions, {@code [sliver][row][nr]}; lanes past the last position are left as they are.
     */
    void packColumns(ConvInput in, int g, int nr, float[] bp);

    /** Whether {@link #addWindowGradient} is the backward's weight-gradient path for this geometry. */
    boolean windowGradient(ConvGeometry g);

    /**
     * Adds the {@code g} samples' part of the weight gradient, transposed, into {@code dWT[at]} ({@code (C KH KW, OC)},
     * row-major), from the input {@code in} reads and the chunk's output gradient {@code gy (OC, G OH OW)}.
     */
    void addWindowGradient(ConvInput in, int g, float[] gy, int oc, float[] dWT, int at);

    /** Whether {@link #col2im} writes rows for this geometry, with {@code front} and {@code back} floats around the columns. */
    boolean rowCol2im(ConvGeometry g, int w, int front, int back);

    /**
     * Writes the {@code h x w} planes of samples {@code [s0, s0 + g)} and channels {@code [0, c)} of {@code dst (N, C, H, W)}:
     * every input position the sum of the column gradients read from it. The columns {@code (C KH KW, G OH OW)} start at
     * {@code cols[at]}, their rows {@code gp} apart; sample s's part of a row starts at its {@code s OH OW}.
     */
    void col2im(float[] cols, int at, int gp, ConvGeometry geo, float[] dst, int s0, int g, int c, int h, int w);
}
