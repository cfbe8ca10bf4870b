package dev.jgrad.bench;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;

/**
 * This processor's limits, measured from Java: the fused multiply-add peak (independent FMAs on the widest vectors, as
 * a matrix product's tile issues them) on one core and on every core at once, and the memory bandwidth (STREAM's triad,
 * {@code a[i] = b[i] + s c[i]}, over arrays far larger than the caches). The workloads' figures are read against these:
 * a product at 70% of the FMA peak is doing well, one at 30% is not.
 */
final class Peak {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    /** Floats per triad array: 3 arrays of 64 MB, far beyond any cache here. */
    private static final int STREAM_FLOATS = 16 << 20;

    private Peak() {
    }

    /** GFLOP/s and GB/s on one core and on {@code threads}, each the best of several runs. */
    static Map<String, Double> measure(int threads) throws Exception {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("peak.fma.1_core.gflops", best(() -> fmaGflops(1)));
        m.put("peak.fma." + threads + "_cores.gflops", best(() -> fmaGflops(threads)));
        m.put("peak.stream_triad.1_core.gbs", best(() -> triadGbs(1)));
        m.put("peak.stream_triad." + threads + "_cores.gbs", best(() -> triadGbs(threads)));
        return m;
    }

    private interface Run {
        double get() throws Exception;
    }

    private static double best(Run r) throws Exception {
        double b = 0;
        for (int i = 0; i < 5; i++) {
            b = Math.max(b, r.get());
        }
        return b;
    }

    /** Every thread runs twelve independent chains of FMAs for the same time; the flops of all, per second. */
    static double fmaGflops(int threads) throws Exception {
        long iters = 40_000_000L;
        double[] seconds = new double[threads];
        float[] sink = new float[threads];
        CyclicBarrier start = new CyclicBarrier(threads);
        Thread[] t = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            int me = i;
            t[i] = new Thread(() -> {
                try {
                    fmas(1000);
                    start.await();
                    long t0 = System.nanoTime();
                    sink[me] = fmas(iters);
                    seconds[me] = (System.nanoTime() - t0) / 1e9;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            t[i].start();
        }
        for (Thread x : t) {
            x.join();
        }
        double slowest = 0;
        for (double s : seconds) {
            slowest = Math.max(slowest, s);
        }
        return threads * iters * 12.0 * 2 * S.length() / slowest / 1e9 + 0 * sink[0];
    }

    private static float fmas(long n) {
        FloatVector x = FloatVector.broadcast(S, 1.0001f);
        FloatVector y = FloatVector.broadcast(S, 0.9999f);
        FloatVector c0 = FloatVector.zero(S);
        FloatVector c1 = c0;
        FloatVector c2 = c0;
        FloatVector c3 = c0;
        FloatVector c4 = c0;
        FloatVector c5 = c0;
        FloatVector c6 = c0;
        FloatVector c7 = c0;
        FloatVector c8 = c0;
        FloatVector c9 = c0;
        FloatVector c10 = c0;
        FloatVector c11 = c0;
        for (long i = 0; i < n; i++) {
            c0 = x.fma(y, c0);
            c1 = x.fma(y, c1);
            c2 = x.fma(y, c2);
            c3 = x.fma(y, c3);
            c4 = x.fma(y, c4);
            c5 = x.fma(y, c5);
            c6 = x.fma(y, c6);
            c7 = x.fma(y, c7);
            c8 = x.fma(y, c8);
            c9 = x.fma(y, c9);
            c10 = x.fma(y, c10);
            c11 = x.fma(y, c11);
        }
        return c0.add(c1).add(c2).add(c3).add(c4).add(c5).add(c6).add(c7).add(c8).add(c9).add(c10).add(c11).reduceLanes(VectorOperators.ADD);
    }

    /** STREAM's triad on {@code threads} threads, each on its share of the arrays; bytes moved (two read, one written) per second. */
    static double triadGbs(int threads) throws Exception {
        float[] a = new float[STREAM_FLOATS];
        float[] b = new float[STREAM_FLOATS];
        float[] c = new float[STREAM_FLOATS];
        java.util.Arrays.fill(b, 1f);
        java.util.Arrays.fill(c, 2f);
        double best = Double.MAX_VALUE;
        for (int rep = 0; rep < 4; rep++) {
            CyclicBarrier start = new CyclicBarrier(threads);
            double[] seconds = new double[threads];
            Thread[] t = new Thread[threads];
            for (int i = 0; i < threads; i++) {
                int me = i;
                int lo = (int) ((long) STREAM_FLOATS * i / threads) / S.length() * S.length();
                int hi = (int) ((long) STREAM_FLOATS * (i + 1) / threads) / S.length() * S.length();
                t[i] = new Thread(() -> {
                    try {
                        start.await();
                        long t0 = System.nanoTime();
                        triad(a, b, c, 3f, lo, hi);
                        seconds[me] = (System.nanoTime() - t0) / 1e9;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                t[i].start();
            }
            double slowest = 0;
            for (int i = 0; i < threads; i++) {
                t[i].join();
                slowest = Math.max(slowest, seconds[i]);
            }
            best = Math.min(best, slowest);
        }
        return 3.0 * 4 * STREAM_FLOATS / best / 1e9;
    }

    private static void triad(float[] a, float[] b, float[] c, float s, int lo, int hi) {
        FloatVector sv = FloatVector.broadcast(S, s);
        for (int i = lo; i < hi; i += S.length()) {
            FloatVector.fromArray(S, c, i).fma(sv, FloatVector.fromArray(S, b, i)).intoArray(a, i);
        }
    }
}
