package dev.jgrad.tensor;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Memory scopes: recycled arrays, kept tensors, and a clear error (never recycled data) after close. */
class MemoryScopeTest {
    private static final Generator G = new Generator(3);

    @Test
    void aTensorUsedAfterItsScopeClosedThrowsInsteadOfReadingRecycledData() {
        Tensor a = Tensor.randn(G, 37, 41);
        Tensor made;
        Tensor view;
        Tensor small;
        try (Memory.Scope s = Memory.scope()) {
            made = a.add(1.0);
            view = made.narrow(0, 2, 5).t();
            small = Tensor.of(1f, 2f).mul(3.0);
            assertTrue(s.owned() >= 2);
        }
        for (Tensor t : new Tensor[] {made, view, small}) {
            String m = assertThrows(ScopeClosedException.class, t::toFloatArray).getMessage();
            assertTrue(m.contains("keep()"), m);
            assertThrows(ScopeClosedException.class, () -> t.sum());
            assertThrows(ScopeClosedException.class, () -> t.add(1.0));
            assertThrows(ScopeClosedException.class, () -> t.max(0, false));
            assertThrows(ScopeClosedException.class, () -> t.mul(t).exp());
        }
        // The next scope gets the array back, zeroed, for a tensor of the same size, and the old tensor still throws.
        try (Memory.Scope s = Memory.scope()) {
            Tensor z = Tensor.zeros(37, 41);
            assertArrayEquals(new float[37 * 41], z.toFloatArray());
            z.fill(5);
            assertThrows(ScopeClosedException.class, made::toFloatArray);
        }
        assertEquals(37 * 41, a.toFloatArray().length, "a tensor made before the scope is not the scope's");
    }

    @Test
    void theSameSizeReusesTheSameArrayAndKeptTensorsSurvive() {
        float[] first;
        Tensor kept;
        Tensor x = Tensor.randn(G, 64, 48);
        try (Memory.Scope s = Memory.scope()) {
            Tensor y = x.mul(2.0);
            first = y.storage.f();
            kept = x.sub(1.0).keep();
        }
        try (Memory.Scope s = Memory.scope()) {
            Tensor again = x.mul(3.0);
            assertSame(first, again.storage.f(), "the pool hands back the array of the same type and size");
            Tensor other = Tensor.zeros(DType.FLOAT64, 64, 48);
            assertNotSame(first, other.storage.d());
        }
        assertArrayEquals(x.sub(1.0).toFloatArray(), kept.toFloatArray(), "a kept tensor outlives its scope intact");
        Memory.clearPool();
        try (Memory.Scope s = Memory.scope()) {
            assertNotSame(first, x.mul(3.0).storage.f(), "a cleared pool hands back nothing");
        }
    }

    @Test
    void withoutAScopeNothingIsRecycled() {
        Tensor x = Tensor.randn(G, 50, 40);
        Tensor y = x.mul(2.0);
        assertFalse(Memory.inScope());
        Tensor z = x.mul(2.0);
        assertNotSame(y.storage.f(), z.storage.f());
        assertArrayEquals(y.toFloatArray(), z.toFloatArray());
    }

    @Test
    void scopesNestAndCloseInnermostFirst() {
        Tensor x = Tensor.randn(G, 30, 70);
        Memory.Scope outer = Memory.scope();
        Tensor a = x.add(1.0);
        Tensor b;
        Memory.Scope inner = Memory.scope();
        b = x.add(2.0);
        assertThrows(IllegalStateException.class, outer::close, "the outer scope cannot close while the inner is open");
        inner.close();
        assertThrows(ScopeClosedException.class, b::toFloatArray);
        assertEquals(x.getDouble(0, 0) + 1, a.getDouble(0, 0), 1e-6, "the outer scope's tensors live until it closes");
        outer.close();
        assertThrows(ScopeClosedException.class, a::toFloatArray);
        assertFalse(Memory.inScope());
        outer.close();
    }

    @Test
    void anotherThreadsTensorsAreNotTheScopesAndItCannotCloseIt() throws Exception {
        Tensor x = Tensor.randn(G, 40, 40);
        AtomicReference<Tensor> theirs = new AtomicReference<>();
        try (Memory.Scope s = Memory.scope()) {
            Thread t = new Thread(() -> theirs.set(x.mul(4.0)));
            t.start();
            t.join();
            AtomicReference<Throwable> closing = new AtomicReference<>();
            Thread closer = new Thread(() -> {
                try {
                    s.close();
                } catch (Throwable e) {
                    closing.set(e);
                }
            });
            closer.start();
            closer.join();
            assertTrue(closing.get() instanceof IllegalStateException);
        }
        assertArrayEquals(x.mul(4.0).toFloatArray(), theirs.get().toFloatArray());
    }
}
