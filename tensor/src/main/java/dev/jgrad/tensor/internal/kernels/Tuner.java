package dev.jgrad.tensor.internal.kernels;

import dev.jgrad.tensor.BinaryOp;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;

/**
 * Measures the {@link Tuning.Choices} on this processor, each candidate against the others in the same JVM, a few
 * seconds in all, and keeps the result in the processor's {@link TuningFile}. What is measured changes no result's bits
 * (a block of rows, or a thread's share of elements, is computed the same way whoever computes it), so a tuning file
 * speeds a run up or slows it down, never changes its numbers.
 */
public final class Tuner {
    /** Candidate rows per block of the matrix product: multiples of 24, whole slivers of every tile height (6, 8, 12). */
    static final int[] ROW_BLOCKS = {48, 72, 96, 144, 192, 288};
    /** Candidate sizes from which an op is split across threads. */
    static final int[] PARALLEL_SIZES = {1 << 12, 1 << 13, 1 << 14, 1 << 15, 1 << 16, 1 << 17, 1 << 18};

    private Tuner() {
    }

    /** Measures, writes the file, uses the choices from now on, and returns them; progress and results go to {@code log}. */
    public static Tuning.Choices run(PrintStream log) throws IOException {
        Tuning.Choices before = Tuning.choices();
        CompilerLoad compilers = Parallel.compilers;
        HelperLag lag = Parallel.lag;
        log.println("jgrad tune: " + Processor.CURRENT + ", " + Parallel.threads() + " thread(s); a few seconds");
        int rowBlock;
        int parallelMin;
        try {
            // The steady state is measured: every thread works, whatever the JIT compilers are doing meanwhile.
            Parallel.compilers = new CompilerLoad(null, System::nanoTime);
            Parallel.lag = HelperLag.never();
            rowBlock = rowBlock(log);
            parallelMin = confirmed(() -> parallelMin(log), Tuning.Choices.DEFAULT.parallelMin());
        } finally {
            Tuning.use(before);
            Parallel.compilers = compilers;
            Parallel.lag = lag;
        }
        Tuning.Choices measured = new Tuning.Choices(rowBlock, parallelMin);
        Tuning.use(measured);
        Path file = TuningFile.path(Processor.CURRENT);
        TuningFile.write(file, measured, Processor.CURRENT);
        log.println("jgrad tune: wrote " + file + ": rows per block of a matrix product " + rowBlock + ", ops split across threads from "
                + parallelMin + " elements");
        return measured;
    }

    /**
     * The rows per block that multiply a large square product and a GPT layer's products fastest: each candidate's best of
     * several runs, the candidates taking turns so that a slow moment of the machine falls on all of them; the default
     * unless another is 3% faster.
     */
    static int rowBlock(PrintStream log) {
        Random r = new Random(1);
        int[][] shapes = {{1024, 1024, 1024}, {768, 128, 512}, {768, 512, 128}};
        float[][][] ops = new float[shapes.length][][];
        for (int s = 0; s < shapes.length; s++) {
            int n = shapes[s][0];
            int k = shapes[s][1];
            int p = shapes[s][2];
            ops[s] = new float[][] {random(r, n * k), random(r, k * p), new float[n * p]};
        }
        double[] best = new double[ROW_BLOCKS.length];
        java.util.Arrays.fill(best, Double.MAX_VALUE);
        long until = System.nanoTime() + 4_000_000_000L;
        for (int round = 0; round < 12 && (round < 4 || System.nanoTime() < until); round++) {
            for (int c = 0; c < ROW_BLOCKS.length; c++) {
                Tuning.use(new Tuning.Choices(ROW_BLOCKS[c], Tuning.Choices.DEFAULT.parallelMin()));
                long t0 = System.nanoTime();
                for (int s = 0; s < shapes.length; s++) {
                    int n = shapes[s][0];
                    int k = shapes[s][1];
                    int p = shapes[s][2];
                    Gemm.sgemmInto(n, k, p, ops[s][0], 0, k, 1, ops[s][1], 0, p, 1, ops[s][2], 0, p);
                }
                // The first rounds warm the JIT up for every candidate alike.
                if (round >= 2) {
                    best[c] = Math.min(best[c], (System.nanoTime() - t0) / 1e6);
                }
            }
        }
        // The default stands unless a candidate beats it by 3%: smaller differences are the machine's noise.
        int choice = argmin(best);
        int dflt = java.util.Arrays.stream(ROW_BLOCKS).boxed().collect(java.util.stream.Collectors.toList()).indexOf(Tuning.Choices.DEFAULT.gemmRowBlock());
        if (best[choice] > 0.97 * best[dflt]) {
            choice = dflt;
        }
        StringBuilder sb = new StringBuilder("  rows per block:");
        for (int c = 0; c < ROW_BLOCKS.length; c++) {
            sb.append(String.format(Locale.ROOT, " %d %.2f ms%s", ROW_BLOCKS[c], best[c], c == choice ? " (best)" : ""));
        }
        log.println(sb);
        return ROW_BLOCKS[choice];
    }

    /** The most measurements of the size from which ops are split ({@link #confirmed}). */
    static final int SPLIT_MEASUREMENTS = 3;

    /**
     * The size from which ops are split, measured by {@code measure}: a size above {@code dflt} is measured again, up to
     * {@link #SPLIT_MEASUREMENTS} times, and the smallest kept. A split that does not pay on large adds is most often
     * another process on the helper's processor for the second the measurement takes (a file written on such a second
     * once said 262144 on a machine that splits from 16384), and the file keeps what it says for every later run.
     */
    static int confirmed(java.util.function.IntSupplier measure, int dflt) {
        int choice = measure.getAsInt();
        for (int again = 1; again < SPLIT_MEASUREMENTS && choice > dflt; again++) {
            choice = Math.min(choice, measure.getAsInt());
        }
        return choice;
    }

    /**
     * The smallest size from which adding two arrays on all the threads beats one thread by a tenth, at that size and
     * every larger one measured; the default where the JVM has one thread.
     */
    static int parallelMin(PrintStream log) {
        if (Parallel.threads() < 2) {
            return Tuning.Choices.DEFAULT.parallelMin();
        }
        int max = PARALLEL_SIZES[PARALLEL_SIZES.length - 1];
        Random r = new Random(2);
        float[] a = random(r, max);
        float[] b = random(r, max);
        float[] o = new float[max];
        double[] one = new double[PARALLEL_SIZES.length];
        double[] all = new double[PARALLEL_SIZES.length];
        java.util.Arrays.fill(one, Double.MAX_VALUE);
        java.util.Arrays.fill(all, Double.MAX_VALUE);
        for (int round = 0; round < 8; round++) {
            for (int i = 0; i < PARALLEL_SIZES.length; i++) {
                int n = PARALLEL_SIZES[i];
                int reps = Math.max(4, (1 << 22) / n);
                long t0 = System.nanoTime();
                for (int rep = 0; rep < reps; rep++) {
                    Kernels.ELEMENTWISE.binary(BinaryOp.ADD, a, 0, b, 0, o, 0, n);
                }
                long t1 = System.nanoTime();
                for (int rep = 0; rep < reps; rep++) {
                    Parallel.forRange(n, n / Parallel.threads() / 2, (lo, hi) -> Kernels.ELEMENTWISE.binary(BinaryOp.ADD, a, lo, b, lo, o, lo, hi - lo));
                }
                long t2 = System.nanoTime();
                if (round >= 2) {
                    one[i] = Math.min(one[i], (t1 - t0) / 1e3 / reps);
                    all[i] = Math.min(all[i], (t2 - t1) / 1e3 / reps);
                }
            }
        }
        int from = PARALLEL_SIZES.length;
        while (from > 0 && all[from - 1] < 0.9 * one[from - 1]) {
            from--;
        }
        int choice = from == PARALLEL_SIZES.length ? Tuning.Choices.MAX_PARALLEL : PARALLEL_SIZES[from];
        StringBuilder sb = new StringBuilder("  an add of n floats, one thread / all:");
        for (int i = 0; i < PARALLEL_SIZES.length; i++) {
            sb.append(String.format(Locale.ROOT, " %dK %.1f/%.1f us", PARALLEL_SIZES[i] >> 10, one[i], all[i]));
        }
        log.println(sb + "; split from " + choice);
        return choice;
    }

    private static float[] random(Random r, int n) {
        float[] f = new float[n];
        for (int i = 0; i < n; i++) {
            f[i] = r.nextFloat() - 0.5f;
        }
        return f;
    }

    private static int argmin(double[] v) {
        int at = 0;
        for (int i = 1; i < v.length; i++) {
            if (v[i] < v[at]) {
                at = i;
            }
        }
        return at;
    }
}
