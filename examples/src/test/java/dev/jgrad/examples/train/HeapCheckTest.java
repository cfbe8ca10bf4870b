package dev.jgrad.examples.train;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** What the refusal of a run too large for memory suggests, against a heap and a machine of chosen sizes. */
class HeapCheckTest {
    private static final long GB = 1L << 30;

    @Test
    void aRunThatFitsTheHeapIsNotRefused() {
        assertNull(HeapCheck.refusal("a run", 3 * GB, "smaller sizes", 4 * GB, 16 * GB));
    }

    @Test
    void aRunThatFitsTheMachineButNotTheHeapSuggestsALargerHeap() {
        assertEquals("a run needs about 5.0 GB to train, more than the Java heap's 4.0 GB: use smaller sizes,"
                + " or JGRAD_JAVA_OPTS=-Xmx7g where the machine has the memory",
                HeapCheck.refusal("a run", 5 * GB, "smaller sizes", 4 * GB, 16 * GB));
    }

    @Test
    void aRunBeyondTheMachinesMemoryDoesNotSuggestAHeapItCannotHave() {
        assertEquals("a run needs about 305 TB to train, more than this machine's 16.0 GB of memory: use smaller sizes",
                HeapCheck.refusal("a run", 305 * 1024 * GB, "smaller sizes", 4 * GB, 16 * GB));
        assertEquals("a run needs about more than 8 EB to train, more than this machine's 16.0 GB of memory: use smaller sizes",
                HeapCheck.refusal("a run", -1, "smaller sizes", 4 * GB, 16 * GB));
    }

    @Test
    void whereTheMachineIsUnknownTheHeapIsNamed() {
        assertEquals("a run needs about 20.0 GB to train, more than the Java heap's 4.0 GB: use smaller sizes,"
                + " or JGRAD_JAVA_OPTS=-Xmx22g where the machine has the memory",
                HeapCheck.refusal("a run", 20 * GB, "smaller sizes", 4 * GB, 0));
    }
}
