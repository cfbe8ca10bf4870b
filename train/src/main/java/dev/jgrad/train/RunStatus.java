package dev.jgrad.train;

import dev.jgrad.nn.io.AtomicFile;
import dev.jgrad.nn.io.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where a run stands, for those who watch it (the dashboard): {@code status.json} in its folder, {@code {"state":
 * "running" | "finished" | "interrupted" | "failed", "pid", "started", "updated" (ms since the epoch), "step",
 * "total_steps", "error"}}. Written atomically after the run's first step, again at most every {@link #EVERY_MS}, and at
 * its end; a run refused before its first step writes none, and one that fails before its first checkpoint puts back
 * the status the folder held. A "running" state whose process is gone was killed.
 */
public final class RunStatus {
    /** The file's name in a run folder. */
    public static final String FILE = "status.json";
    /** How often a running run rewrites its status at most. */
    static final long EVERY_MS = 2000;

    private final Path dir;
    private final long totalSteps;
    private final long started = System.currentTimeMillis();
    private long lastWrite;
    private boolean written;

    /** The status file the folder held before this run (null: none), put back if the run leaves nothing of its own. */
    private final byte[] before;

    RunStatus(Path dir, long totalSteps) {
        this.dir = dir;
        this.totalSteps = totalSteps;
        byte[] b;
        try {
            Path f = dir.resolve(FILE);
            b = Files.isRegularFile(f) && Files.size(f) <= 64 * 1024 ? Files.readAllBytes(f) : null;
        } catch (IOException e) {
            b = null;
        }
        this.before = b;
    }

    /** Puts back the status the folder held before this run (or removes this run's), where this run wrote one. */
    void restore() {
        if (!written) {
            return;
        }
        try {
            if (before != null) {
                AtomicFile.write(dir.resolve(FILE), before);
            } else {
                Files.deleteIfExists(dir.resolve(FILE));
            }
        } catch (IOException e) {
            // The status is for watchers: what it says is then this run's last "running".
        }
    }

    /** After a step: the first one and then one every {@link #EVERY_MS} rewrite the file. */
    void stepped(long step) {
        long now = System.currentTimeMillis();
        if (!written || now - lastWrite >= EVERY_MS) {
            write("running", step, null);
        }
    }

    /** The run's end ("finished", "interrupted", "failed" with its error), where it wrote a status before. */
    void ended(String state, long step, String error) {
        if (written) {
            write(state, step, error);
        }
    }

    private void write(String state, long step, String error) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("state", state);
        m.put("pid", ProcessHandle.current().pid());
        m.put("started", started);
        long now = System.currentTimeMillis();
        m.put("updated", now);
        m.put("step", step);
        m.put("total_steps", totalSteps);
        if (error != null) {
            m.put("error", error);
        }
        try {
            AtomicFile.writeString(dir.resolve(FILE), Json.writePretty(m));
            written = true;
            lastWrite = now;
        } catch (IOException e) {
            // The status is for watchers; a disk that refuses it refuses the checkpoint too, which says so.
            lastWrite = now;
        }
    }

    /** A run folder's status, as written; empty where there is none or it cannot be read. */
    public static Optional<Map<String, Object>> read(Path runFolder) {
        Path f = runFolder.resolve(FILE);
        try {
            if (!Files.isRegularFile(f) || Files.size(f) > 64 * 1024) {
                return Optional.empty();
            }
            Object v = Json.parse(Files.readString(f));
            @SuppressWarnings("unchecked")
            Map<String, Object> m = v instanceof Map ? (Map<String, Object>) v : null;
            return Optional.ofNullable(m);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
