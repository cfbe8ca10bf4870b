package dev.jgrad.tensor;

import dev.jgrad.tensor.internal.kernels.HelpersAlwaysRun;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * {@link HelpersAlwaysRun} for this package's tests that set the thread count: it restores the count after the test,
 * and without it a job runs on the calling thread alone while the JIT compilers are busy (as they are early in a test
 * run), and a test that compares one thread with two would compare one thread with one. JUnit reaches an extension by reflection, which the module opens to it in this package
 * and not, when only this package's tests are chosen, in the kernels' package; so this one delegates.
 */
final class AllThreads implements BeforeEachCallback, AfterEachCallback {
    private final HelpersAlwaysRun helpers = new HelpersAlwaysRun();

    @Override
    public void beforeEach(ExtensionContext context) {
        helpers.beforeEach(context);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        helpers.afterEach(context);
    }
}
