package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.Tuning;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IterTest {
    /**
     * Operands laid out alike (an in-place op on contiguous tensors) merge into one row; a large one is still shared
     * among the threads, in pieces that cover it once, each operand's offset at its own stride.
     */
    @Test
    @org.junit.jupiter.api.extension.ExtendWith(AllThreads.class)
    void aSingleLargeRowIsSplitAcrossTheThreads() {
        Backend.setThreads(2);
        int n = 4 * Tuning.parallelMin() + 37;
        Iter it = Iter.of(new int[] {n}, new int[] {1}, new int[] {3});
        int[] base = {5, 11};
        int most = 0;
        // The kernels leave a processor to the JIT compilers while they are busy (a JVM's first seconds), and a job
        // then runs on one thread: try until the compilers are idle.
        for (long until = System.nanoTime() + 20_000_000_000L; most < 2 && System.nanoTime() < until; ) {
            List<int[]> pieces = Collections.synchronizedList(new ArrayList<>());
            it.forEachBlockParallel(base, (off, rows, len) -> {
                assertEquals(1, rows);
                pieces.add(new int[] {off[0], off[1], len});
            });
            pieces.sort((a, b) -> Integer.compare(a[0], b[0]));
            int next = 0;
            for (int[] p : pieces) {
                assertEquals(base[0] + next, p[0], "pieces tile the row");
                assertEquals(base[1] + 3 * next, p[1], "the second operand at its own stride");
                next += p[2];
            }
            assertEquals(n, next);
            most = Math.max(most, pieces.size());
        }
        assertTrue(most >= 2, "a row of " + n + " elements at 2 threads ran as one piece");
    }

    /** The same numbers whether an in-place op on contiguous tensors is split or not. */
    @Test
    @org.junit.jupiter.api.extension.ExtendWith(AllThreads.class)
    void anInPlaceOpOnContiguousTensorsGivesTheSameBitsOnOneAndTwoThreads() {
        Generator g = new Generator(3);
        Tensor x = Tensor.randn(g, 300, 211);
        Tensor y = Tensor.randn(g, 300, 211);
        Backend.setThreads(1);
        float[] one = x.clone().addi(y).toFloatArray();
        Backend.setThreads(2);
        float[] two = x.clone().addi(y).toFloatArray();
        assertArrayEquals(x.add(y).toFloatArray(), one);
        assertArrayEquals(one, two);
    }

    /**
     * A unary op over a contiguous tensor split between two threads where the halves' boundary cuts a vector: the
     * vector kernels compute their last few elements by a scalar formula (Math.exp, Math.tanh, ...) whose bits differ
     * from the lanes', so a piece that started mid-vector gave other bits than one thread did.
     */
    @Test
    @org.junit.jupiter.api.extension.ExtendWith(AllThreads.class)
    void unaryOpsGiveTheSameBitsOnOneAndTwoThreadsWhereAPieceCutsAVector() {
        int n = 4 * Tuning.parallelMin() + 37;
        Tensor x = Tensor.randn(new Generator(5), n).mul(3.0);
        Tensor positive = x.abs().add(0.25);
        java.util.Map<String, java.util.function.Supplier<Tensor>> ops = new java.util.LinkedHashMap<>();
        ops.put("exp", x::exp);
        ops.put("tanh", x::tanh);
        ops.put("sigmoid", x::sigmoid);
        ops.put("log", positive::log);
        ops.put("log1p", positive::log1p);
        ops.put("erf", x::erf);
        ops.put("gelu", x::gelu);
        ops.put("softplus", x::softplus);
        ops.put("silu", x::silu);
        for (java.util.Map.Entry<String, java.util.function.Supplier<Tensor>> op : ops.entrySet()) {
            Backend.setThreads(1);
            float[] one = op.getValue().get().toFloatArray();
            Backend.setThreads(2);
            float[] two = op.getValue().get().toFloatArray();
            assertArrayEquals(one, two, op.getKey() + " of " + n + " elements, one thread against two");
        }
    }
}
