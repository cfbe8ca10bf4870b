package dev.jgrad.tensor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Scopes that recycle tensor memory, as ND4J's workspaces and DJL's {@code NDManager} do:
 * <pre>{@code
 * try (Memory.Scope step = Memory.scope()) {
 *     Variable loss = ...;          // every tensor made here is owned by the scope
 *     loss.backward();
 *     opt.step();
 *     total += loss.item();
 * }                                 // their arrays go back to this thread's pool
 * }</pre>
 * A new JVM array is zeroed in memory the cache has not seen, which costs more than many ops; inside a
 * scope a tensor of a size seen before gets an array the last step gave back, still in cache (zeroed
 * where the op needs zeros; an op that writes every element skips that).
 *
 * <p>When the scope closes, every tensor made in it (on its thread) gives up its array unless it was
 * {@link Tensor#keep() kept} (arrays of 4 KB and more go back to the pool, smaller ones to the
 * collector); using such a tensor afterwards throws {@link ScopeClosedException}, it never reads
 * recycled data. Gradients of leaves, optimizer state, parameters and module buffers keep themselves.
 * Without a scope arrays are allocated and collected as usual, except in a backward pass: one that frees its
 * graph (first order) runs in a scope of its own, since the gradients flowing through it are its own, and keeps
 * what it hands out (a custom function's backward that holds on to a tensor it made must {@link Tensor#keep()
 * keep} it). Scopes nest (the innermost owns what is made) and belong to the thread that opened them.
 */
public final class Memory {
    /** Arrays smaller than this are cheaper to allocate than to pool. */
    private static final int MIN_BYTES = 4096;
    /** The most a thread's pool holds (512 MB, or an eighth of the heap if less); beyond it arrays go to the collector. */
    private static final long MAX_POOL_BYTES = Math.min(512L << 20, Runtime.getRuntime().maxMemory() / 8);

    private static final ThreadLocal<Scope> CURRENT = new ThreadLocal<>();
    private static final ThreadLocal<Pool> POOL = ThreadLocal.withInitial(Pool::new);

    private Memory() {
    }

    /** Opens a scope on this thread; close it (try-with-resources) on the same thread. */
    public static Scope scope() {
        Scope s = new Scope(CURRENT.get());
        CURRENT.set(s);
        return s;
    }

    /** Drops the free arrays this thread's pool holds (the next scope starts from fresh arrays). */
    public static void clearPool() {
        POOL.remove();
    }

    /** The bytes of free arrays this thread's pool holds (for tests and diagnostics). */
    public static long pooledBytes() {
        return POOL.get().bytes;
    }

    /** Whether this thread is inside a scope. */
    public static boolean inScope() {
        return CURRENT.get() != null;
    }

    /** An array of {@code size} elements from the pool (zeroed if asked), or null (no scope, too small, none free). */
    static Object take(DType dtype, int size, boolean zeroed) {
        if (CURRENT.get() == null || (long) size * dtype.itemSize() < MIN_BYTES) {
            return null;
        }
        return POOL.get().take(dtype, size, zeroed);
    }

    static Storage register(Storage s) {
        Scope scope = CURRENT.get();
        if (scope != null) {
            scope.owned.add(s);
        }
        return s;
    }

    /** What a scope owns, and the scope it was opened in. */
    public static final class Scope implements AutoCloseable {
        private final Scope parent;
        private final Thread owner = Thread.currentThread();
        private final List<Storage> owned = new ArrayList<>();
        private boolean closed;

        private Scope(Scope parent) {
            this.parent = parent;
        }

        /** How many storages the scope owns now (for tests and diagnostics). */
        public int owned() {
            return owned.size();
        }

        /** Gives back the arrays of every tensor made in the scope and not kept. */
        @Override
        public void close() {
            if (closed) {
                return;
            }
            if (Thread.currentThread() != owner) {
                throw new IllegalStateException("a Memory.Scope must be closed by the thread that opened it (" + owner.getName() + ")");
            }
            if (CURRENT.get() != this) {
                throw new IllegalStateException("Memory scopes must close innermost first");
            }
            Pool pool = POOL.get();
            for (Storage s : owned) {
                if (!s.isKept()) {
                    Object array = s.release();
                    if ((long) s.size * s.dtype.itemSize() >= MIN_BYTES) {
                        pool.give(s.dtype, s.size, array);
                    }
                }
            }
            owned.clear();
            closed = true;
            CURRENT.set(parent);
        }
    }

    /** Free arrays by type and length, zeroed when taken for a caller that needs zeros. */
    private static final class Pool {
        private final Map<Long, ArrayDeque<Object>> free = new HashMap<>();
        private long bytes;

        private static long key(DType dtype, int size) {
            return ((long) dtype.ordinal() << 32) | size;
        }

        Object take(DType dtype, int size, boolean zeroed) {
            ArrayDeque<Object> q = free.get(key(dtype, size));
            Object a = q == null ? null : q.pollLast();
            if (a == null) {
                return null;
            }
            bytes -= (long) size * dtype.itemSize();
            if (!zeroed) {
                return a;
            }
            switch (dtype) {
                case FLOAT32: Arrays.fill((float[]) a, 0f); break;
                case FLOAT64: Arrays.fill((double[]) a, 0.0); break;
                case INT64: Arrays.fill((long[]) a, 0L); break;
                default: Arrays.fill((boolean[]) a, false);
            }
            return a;
        }

        void give(DType dtype, int size, Object array) {
            long b = (long) size * dtype.itemSize();
            if (bytes + b > MAX_POOL_BYTES) {
                return;
            }
            free.computeIfAbsent(key(dtype, size), k -> new ArrayDeque<>()).addLast(array);
            bytes += b;
        }
    }
}
