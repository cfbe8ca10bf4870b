package dev.jgrad.tensor.internal.kernels;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For tests that must exercise the helper threads: while each test runs, jobs use every thread whatever the JIT
 * compilers ({@link CompilerLoad}) or another process ({@link HelperLag}) are doing; after it, both rules are restored,
 * and so is the thread count, which the test may set with {@link Parallel#setThreads}.
 */
public final class HelpersAlwaysRun implements BeforeEachCallback, AfterEachCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(HelpersAlwaysRun.class);

    @Override
    public void beforeEach(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NS);
        store.put(CompilerLoad.class, Parallel.compilers);
        store.put(HelperLag.class, Parallel.lag);
        store.put(Integer.class, Parallel.threads());
        Parallel.compilers = new CompilerLoad(null, System::nanoTime);
        Parallel.lag = HelperLag.never();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NS);
        Parallel.compilers = store.get(CompilerLoad.class, CompilerLoad.class);
        Parallel.lag = store.get(HelperLag.class, HelperLag.class);
        Parallel.setThreads(store.get(Integer.class, Integer.class));
    }
}
