package dev.jgrad.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the benchmarks' forks run on: their JDK and their kernels. JMH starts each fork with the runner's own java and
 * the flags of {@link BenchRunner#jvmArgs}, which the runner itself need not have: started as {@code java -jar}, it lacks
 * the Vector API and reports plain Java kernels, and JGRAD_BENCH_JVM_ARGS (say {@code -XX:UseAVX=2}) reaches only the
 * forks. So a JVM started the way the forks are says what they run on, and the results name that.
 */
public final class ForkJvm {
    /** Said where the JVM started with the forks' flags did not answer. */
    static final String UNKNOWN = "unknown";

    private ForkJvm() {
    }

    /** Prints this JVM's name and version, then its kernels: one line each. */
    public static void main(String[] args) {
        System.out.println(jdk());
        System.out.println(dev.jgrad.tensor.Backend.kernels());
    }

    /** This JVM's name and version, as the results name a JDK. */
    static String jdk() {
        return System.getProperty("java.vm.name") + " " + Runtime.version();
    }

    /** {jdk, kernels} of this java started with the forks' {@code flags}; {@link #UNKNOWN} for both where it fails. */
    static String[] describe(String[] flags) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(flags));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ForkJvm.class.getName()));
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            List<String> lines = new ArrayList<>();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null && lines.size() < 2; line = out.readLine()) {
                    lines.add(line);
                }
            }
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new String[] {UNKNOWN, UNKNOWN};
            }
            return p.exitValue() == 0 && lines.size() == 2 ? lines.toArray(new String[0]) : new String[] {UNKNOWN, UNKNOWN};
        } catch (IOException e) {
            return new String[] {UNKNOWN, UNKNOWN};
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new String[] {UNKNOWN, UNKNOWN};
        }
    }
}
