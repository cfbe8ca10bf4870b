package dev.jgrad.tensor;

/**
 * The innermost block of a matrix product: an {@link #mr()} x {@link #nr()} tile of C from a packed sliver
 * of A ({@code kc} columns of {@code mr} values) and a packed sliver of B ({@code kc} rows of {@code nr}
 * values). Only the {@code rows} x {@code cols} corner that lies inside C is added into C.
 */
interface MicroKernel {
    int mr();

    int nr();

    void run(int kc, float[] ap, int ao, float[] bp, int bo, float[] c, int co, int crs, int rows, int cols);
}
