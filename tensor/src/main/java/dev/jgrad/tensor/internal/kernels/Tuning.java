package dev.jgrad.tensor.internal.kernels;

/**
 * Thresholds that choose between kernel paths by size, in one place, each with its reason. Constants that are part of
 * one algorithm's definition (a micro-kernel's tile, a packing block) stay with that algorithm.
 */
public final class Tuning {
    /** Below this many elements an op runs on one thread: a split costs more than it saves. */
    public static final int PARALLEL_MIN = 1 << 15;

    private Tuning() {
    }
}
