package dev.jgrad.train.tensorboard;

import dev.jgrad.nn.io.ProtoWriter;

/**
 * A histogram as TensorBoard's {@code HistogramProto}, binned as PyTorch's {@code add_histogram} bins by default:
 * edges at ±1e-12 growing by a factor of 1.1 up to 1e20, and 0, so weights of any scale get buckets of the same
 * relative width; the buckets are then cut to the range that holds values (with one empty bucket on the left, since
 * TensorBoard keeps only right edges). Values beyond ±1e20 and NaNs are not counted, as numpy's histogram leaves them out.
 */
final class Histogram {
    /** The bucket edges, ascending: PyTorch's {@code default_bins}, computed the same way so that they are the same doubles. */
    static final double[] EDGES = edges();

    final double min;
    final double max;
    final double num;
    final double sum;
    final double sumSquares;
    final double[] bucketLimit;
    final double[] bucket;

    private Histogram(double min, double max, double num, double sum, double sumSquares, double[] bucketLimit, double[] bucket) {
        this.min = min;
        this.max = max;
        this.num = num;
        this.sum = sum;
        this.sumSquares = sumSquares;
        this.bucketLimit = bucketLimit;
        this.bucket = bucket;
    }

    private static double[] edges() {
        java.util.List<Double> positive = new java.util.ArrayList<>();
        for (double v = 1e-12; v < 1e20; v *= 1.1) {
            positive.add(v);
        }
        double[] e = new double[2 * positive.size() + 1];
        int n = positive.size();
        for (int i = 0; i < n; i++) {
            e[n - 1 - i] = -positive.get(i);
            e[n + 1 + i] = positive.get(i);
        }
        e[n] = 0;
        return e;
    }

    /** The histogram of {@code values}, or null when none of them falls in a bucket (all NaN, say, or none at all). */
    static Histogram of(float[] values) {
        int bins = EDGES.length - 1;
        long[] counts = new long[bins];
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        double sum = 0;
        double squares = 0;
        long counted = 0;
        for (float f : values) {
            double x = f;
            if (!(x >= EDGES[0] && x <= EDGES[bins])) {
                continue;
            }
            counts[Math.min(bins - 1, bucketOf(x))]++;
            counted++;
            min = Math.min(min, x);
            max = Math.max(max, x);
            sum += x;
            squares += x * x;
        }
        if (counted == 0) {
            return null;
        }
        int first = 0;
        while (counts[first] == 0) {
            first++;
        }
        int last = bins - 1;
        while (counts[last] == 0) {
            last--;
        }
        // As PyTorch's make_histogram: the buckets from the one left of the first that holds values (or an empty one
        // added there) to the last that does, each given by its right edge.
        int size = last - first + 2;
        double[] limits = new double[size];
        double[] bucket = new double[size];
        for (int j = 0; j < size; j++) {
            int bin = first - 1 + j;
            limits[j] = EDGES[bin + 1];
            bucket[j] = bin < 0 ? 0 : counts[bin];
        }
        return new Histogram(min, max, counted, sum, squares, limits, bucket);
    }

    /** The index of 1e-12, the smallest positive edge; edge {@code ZERO + 1 + k} is about 1e-12 * 1.1^k. */
    private static final int ZERO = EDGES.length / 2;
    private static final double LOG_STEP = Math.log(1.1);

    /**
     * The bin whose edges hold x: the last edge at or below it. Found from the logarithm (the edges grow by 1.1), then
     * corrected against the edges themselves, so it is the bin a search would find, at a third of the cost: a GPT's
     * histograms bin a million values every few hundred steps.
     */
    static int bucketOf(double x) {
        if (x == 0) {
            return ZERO;
        }
        double a = Math.abs(x);
        int i;
        if (a < 1e-12) {
            i = x > 0 ? ZERO : ZERO - 1;
        } else {
            int k = (int) Math.floor(Math.log(a / 1e-12) / LOG_STEP);
            i = x > 0 ? ZERO + 1 + k : ZERO - 2 - k;
        }
        i = Math.max(0, Math.min(EDGES.length - 2, i));
        while (i > 0 && EDGES[i] > x) {
            i--;
        }
        while (i < EDGES.length - 2 && EDGES[i + 1] <= x) {
            i++;
        }
        return i;
    }

    /** The bin by binary search: what {@link #bucketOf} must agree with. */
    static int bucketBySearch(double x) {
        int lo = 0;
        int hi = EDGES.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (EDGES[mid] <= x) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** The HistogramProto message, with proto3's defaults left out. */
    ProtoWriter proto() {
        ProtoWriter p = new ProtoWriter();
        nonZero(p, 1, min);
        nonZero(p, 2, max);
        nonZero(p, 3, num);
        nonZero(p, 4, sum);
        nonZero(p, 5, sumSquares);
        p.packedFloat64(6, bucketLimit);
        p.packedFloat64(7, bucket);
        return p;
    }

    private static void nonZero(ProtoWriter p, int field, double v) {
        if (Double.doubleToRawLongBits(v) != 0) {
            p.float64(field, v);
        }
    }
}
