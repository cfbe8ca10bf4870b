package dev.jgrad.examples.cli;

import dev.jgrad.examples.UserError;
import dev.jgrad.train.dashboard.Dashboard;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code jgrad dashboard [RUNS_DIR] [--port 6006] [--host 127.0.0.1]}: a live page of the runs in a folder. */
@Command(name = "dashboard", mixinStandardHelpOptions = true,
        description = "Serve a live page of the runs under a folder: their state, curves (updated while they train), samples and options.")
public final class DashboardCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "RUNS_DIR", description = "the folder of run folders (default: runs, made if missing)")
    Path runs;

    @Option(names = "--port", paramLabel = "N", defaultValue = "6006", description = "the port (default: ${DEFAULT-VALUE}; 0: any free one)")
    int port;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "the address to listen on (default: ${DEFAULT-VALUE}, this machine only; 0.0.0.0 lets others see your runs)")
    String host;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) {
            throw new UserError("--port must be from 0 to 65535, got " + port);
        }
        if (runs == null) {
            // The default folder, where ./jgrad train puts runs: made if this is the first thing a user runs. A folder
            // the user names must exist (a typo gets an error, not an empty page).
            runs = Path.of("runs");
            try {
                java.nio.file.Files.createDirectories(runs);
            } catch (IOException e) {
                throw new UserError("cannot make the folder runs/: " + e.getMessage());
            }
        }
        try (Dashboard d = Dashboard.start(runs, host, port)) {
            System.out.println("jgrad dashboard: " + d.address() + " (the runs under " + runs + "); Ctrl-C stops it");
            Thread.currentThread().join();
        } catch (IOException e) {
            throw new UserError(e.getMessage());
        }
        return 0;
    }
}
