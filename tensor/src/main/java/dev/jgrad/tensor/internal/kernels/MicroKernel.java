package dev.jgrad.tensor.internal.kernels;

/**
 * The innermost block of a matrix product: an {@link #mr()} x {@link #nr()} tile of C from a packed sliver
 * of A ({@code mr} rows by {@code kc} columns; element (r, k) at {@code ap[ao + k * mr + r]}, rows past
 * {@code rows} zero) and a sliver of B ({@code kc} rows of {@code nr} contiguous values; row k at
 * {@code bp[bo + k * bk]}: {@code bk = nr} when B is packed, B's row stride when small products read it in
 * place). Only the {@code rows} x {@code cols} corner that lies inside C is added into C, or written over it
 * with {@code overwrite} (C's old values, perhaps a recycled array's, are then never read).
 */
public interface MicroKernel {
    public int mr();

    public int nr();

    public void run(int kc, float[] ap, int ao, float[] bp, int bo, int bk, float[] c, int co, int crs, int rows, int cols, boolean overwrite);

    /**
     * Up to 3 x 3 dot products along k, for a product whose A has unit-stride rows and whose B has unit-stride
     * columns (read in place, unpacked): {@code c[co + r crs + q] += sum over kk < kc of a[ao + r ars + kk] b[bo + q bcs + kk]}
     * for {@code r < rows}, {@code q < cols}.
     */
    public void dots(int kc, float[] a, int ao, int ars, int rows, float[] b, int bo, int bcs, int cols, float[] c, int co, int crs);
}
