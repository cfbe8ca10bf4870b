package dev.jgrad.tensor.internal.kernels;

/** Optimizer updates over arrays: Adam's step in one pass (the formula is {@code AdamStep}'s). */
public interface OptimizerKernels {
    /**
     * Adam's moments below this magnitude become 0. A moment whose gradient stopped (a dead ReLU unit)
     * decays geometrically into subnormal floats, where each multiply costs the CPU some hundred times
     * more; the update such a moment would make is below 1e-21 of the learning rate.
     */
    float FLUSH = 1e-30f;

    /** One Adam step over n contiguous float32 elements of each array, every operation in float. */
    void adam(float[] p, int po, float[] g, int go, float[] m, int mo, float[] v, int vo, int n,
              float b1, float b2, float l2, float stepSize, float bc2Sqrt, float eps);

    /** One Adam step over n contiguous float64 elements of each array. */
    void adam(double[] p, int po, double[] g, int go, double[] m, int mo, double[] v, int vo, int n,
              double b1, double b2, double l2, double stepSize, double bc2Sqrt, double eps);
}
