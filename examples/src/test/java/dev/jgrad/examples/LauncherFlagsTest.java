package dev.jgrad.examples;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher's JIT flags (its JIT_FLAGS line; docs/performance.md, "JVM flags") are passed by every other JVM that
 * runs jgrad code, so that a user's program, the tests and the launcher's runs compile the kernels alike. The
 * benchmarks' forks are held to the same line by BenchRunnerTest, ParityIT's child JVMs read it.
 */
class LauncherFlagsTest {
    @Test
    void theLauncherStartsItsJvmWithThem() throws Exception {
        assertFalse(Launcher.jitFlags().isEmpty());
        assertTrue(Launcher.script().contains("exec \"$JAVA\" --add-modules jdk.incubator.vector $JIT_FLAGS "),
                "the launcher's java command no longer passes $JIT_FLAGS");
    }

    @Test
    void theStarterPassesThem() throws Exception {
        String pom = Files.readString(ReadmeTest.starter("pom.xml"));
        for (String flag : Launcher.jitFlags()) {
            assertTrue(pom.contains("<argument>" + flag + "</argument>"), "the starter's pom.xml does not pass the launcher's " + flag);
        }
    }

    /** This JVM was started by Surefire with the root pom.xml's jgrad.jvm.args, as every module's tests are. */
    @Test
    void theTestsRunWithThem() throws Exception {
        List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (String flag : Launcher.jitFlags()) {
            assertTrue(args.contains(flag), "the tests' JVM (the root pom.xml's jgrad.jvm.args) lacks the launcher's " + flag + ": " + args);
        }
    }
}
