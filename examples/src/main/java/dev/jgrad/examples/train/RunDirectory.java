package dev.jgrad.examples.train;

import dev.jgrad.examples.UserError;
import dev.jgrad.nn.io.AtomicFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** The folder a run writes into: {@code --out DIR}, or a new {@code runs/<example>-<time>}; checked writable before training starts. */
final class RunDirectory {
    private RunDirectory() {
    }

    static Path prepare(Path requested, String example) {
        Path dir = requested;
        if (dir == null) {
            String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
            dir = Path.of("runs", example + "-" + stamp);
            for (int i = 2; Files.exists(dir); i++) {
                dir = Path.of("runs", example + "-" + stamp + "-" + i);
            }
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new UserError("--out " + dir + " is a file, not a folder");
        }
        try {
            Files.createDirectories(dir);
            Path probe = Files.createTempFile(dir, ".write-check", ".tmp");
            Files.delete(probe);
        } catch (IOException e) {
            throw new UserError("cannot write to --out " + dir + ": " + AtomicFile.reason(e));
        } catch (SecurityException e) {
            throw new UserError("cannot write to --out " + dir + ": " + (e.getMessage() == null ? "SecurityException" : e.getMessage()));
        }
        return dir;
    }
}
