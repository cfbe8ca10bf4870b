package dev.jgrad.examples.train;

import dev.jgrad.examples.UserError;
import dev.jgrad.examples.report.LossChart;
import dev.jgrad.examples.report.Metrics;
import dev.jgrad.nn.Checkpoint;
import dev.jgrad.nn.Module;
import dev.jgrad.nn.io.AtomicFileSet;
import dev.jgrad.nn.io.CheckpointException;
import dev.jgrad.nn.io.Json;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.tensor.DType;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What every run leaves in its folder: metrics.csv, loss.png, summary.json, model.safetensors and optimizer.safetensors,
 * replaced together as one {@link AtomicFileSet} at each checkpoint and at the end, so a kill at any instant leaves the
 * previous set or the new one.
 */
final class RunFiles {
    static final String MODEL = "model.safetensors";
    static final String OPTIMIZER = "optimizer.safetensors";
    /** The metadata key that pairs a model file with the optimizer state written with it. */
    static final String CHECKPOINT_ID = "jgrad.checkpoint_id";

    private RunFiles() {
    }

    /**
     * A new set of the run's files holding metrics.csv and loss.png, to which the example adds its other charts before
     * {@link #finish} adds the summary and the checkpoint and replaces them all together. A run that trained nothing (an
     * evaluation with --epochs 0) has no curves: it writes neither, not an empty chart.
     */
    static AtomicFileSet curves(Path dir, Metrics metrics, String title, String subtitle) {
        AtomicFileSet files = new AtomicFileSet(dir);
        if (!metrics.rows().isEmpty()) {
            files.addString("metrics.csv", metrics.toCsv());
            files.add("loss.png", LossChart.writer(metrics, title, subtitle));
        }
        return files;
    }

    /** Adds summary.json: {"example", "seed", "seconds", "series": {name: {...}}}. */
    static void addSummary(AtomicFileSet files, String example, long seed, double seconds, Map<String, Map<String, Object>> series) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("example", example);
        s.put("seed", seed);
        s.put("seconds", Math.round(seconds * 1000) / 1000.0);
        s.put("series", finite(series));
        files.addString("summary.json", Json.writePretty(s));
    }

    /** Replaces the set's files in the run folder together; a failure (a full disk) is one line naming the file. */
    static void commit(AtomicFileSet files) {
        try {
            files.commit();
        } catch (IOException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    /** Finishes a commit that a kill interrupted in {@code dir} (or removes an unfinished one) before the folder is read. */
    static void recover(Path dir) {
        try {
            AtomicFileSet.recover(dir);
        } catch (IOException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    /** One series' numbers for summary.json: the last training and held-out losses and the example's score. */
    static Map<String, Object> series(Metrics metrics, String series, String scoreName, double score) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("final_loss", metrics.last(series, "train"));
        // The held-out loss under its split's name: val_loss, or test_loss where the held-out set is the test set.
        String heldOut = "val";
        for (Metrics.Row r : metrics.rows()) {
            if (r.series().equals(series) && !r.split().equals("train") && !r.split().equals(Trainer.STEP_SPLIT)) {
                heldOut = r.split();
            }
        }
        m.put(heldOut + "_loss", metrics.last(series, heldOut));
        m.put(scoreName, score);
        return m;
    }

    /**
     * The end of every run: {@code files} (its curves and charts), summary.json and the checkpoint of {@code model}, replaced
     * together, and a line naming what was written. A run of zero epochs trained nothing, so it writes no checkpoint and leaves
     * one already in the folder alone.
     */
    static void finish(AtomicFileSet files, Path dir, String example, long seed, long startedNanos, int epochs,
                       Map<String, Map<String, Object>> series, Module model, Optimizer opt, Map<String, String> metadata,
                       java.io.PrintStream out) {
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        addSummary(files, example, seed, seconds, series);
        if (epochs > 0) {
            Map<String, String> meta = new LinkedHashMap<>(metadata);
            meta.put("example", example);
            meta.put("seed", Long.toString(seed));
            try {
                addCheckpoint(files, dir, model, opt, meta);
            } catch (UserError broken) {
                // A run that went on through NaN (--allow-nan) keeps its curves and summary, never a checkpoint of broken weights.
                commit(files);
                throw broken;
            }
        }
        commit(files);
        String time = String.format(java.util.Locale.ROOT, "%.1f", seconds) + " s";
        out.println("Wrote " + dir + "/{" + String.join(", ", files.names()) + "} in " + time
                + (epochs == 0 ? "; no checkpoint, as 0 epochs trained nothing" : ""));
    }

    /** JSON has no NaN: a value that was never measured (no epoch ran) is written as null. */
    @SuppressWarnings("unchecked")
    private static Object finite(Object v) {
        if (v instanceof Double && !Double.isFinite((Double) v)) {
            return null;
        }
        if (v instanceof Map) {
            Map<String, Object> m = new LinkedHashMap<>();
            ((Map<String, Object>) v).forEach((k, x) -> m.put(k, finite(x)));
            return m;
        }
        return v;
    }

    /**
     * What pairs a model file with its optimizer state: a checksum of the weights and the optimizer's step count, the same
     * for the same run (so the same seed writes the same bytes) and different for a model written at another step.
     */
    static String checkpointId(Module model, Optimizer opt) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        for (dev.jgrad.nn.Parameter p : model.parameters()) {
            // The weights' bytes as they are held (float64 parameters as doubles), checksummed a tensor at a time.
            ByteBuffer bytes;
            if (p.data().dtype() == DType.FLOAT64) {
                double[] d = p.data().toDoubleArray();
                bytes = ByteBuffer.allocate(8 * d.length);
                bytes.asDoubleBuffer().put(d);
            } else {
                float[] f = p.data().toFloatArray();
                bytes = ByteBuffer.allocate(4 * f.length);
                bytes.asFloatBuffer().put(f);
            }
            crc.update(bytes);
        }
        return Long.toHexString(crc.getValue()) + "-" + opt.stateMetadata().get("steps");
    }

    /** How often a run checkpoints between epochs at most: tiny epochs would otherwise spend more time writing than training. */
    static final long EPOCH_SAVE_NANOS = 5_000_000_000L;

    /**
     * After an epoch, metrics.csv and the checkpoint of the run so far, so that a crash or a kill loses at most the
     * epochs since (at most one every {@link #EPOCH_SAVE_NANOS}); weights that are no longer finite are not written.
     */
    static Saver epochSaver(Path dir, Metrics metrics, Module model, Optimizer opt, String example, long seed) {
        return new Saver(() -> {
            AtomicFileSet files = new AtomicFileSet(dir).addString("metrics.csv", metrics.toCsv());
            if (allFinite(model)) {
                addCheckpoint(files, dir, model, opt, Map.of("example", example, "seed", Long.toString(seed)));
            }
            commit(files);
        });
    }

    /** Checkpoints a run in progress: after epochs (at most every {@link #EPOCH_SAVE_NANOS}), or at once (--save-every). */
    static final class Saver implements Runnable {
        private final Runnable write;
        private long last = System.nanoTime();

        /** {@code write} writes the run's files (one set). */
        Saver(Runnable write) {
            this.write = write;
        }

        /** After an epoch: unless the last checkpoint is recent. */
        @Override
        public void run() {
            if (System.nanoTime() - last >= EPOCH_SAVE_NANOS) {
                now();
            }
        }

        /** The run's files now. */
        void now() {
            last = System.nanoTime();
            write.run();
        }
    }

    static boolean allFinite(Module model) {
        for (dev.jgrad.nn.Parameter p : model.parameters()) {
            if (!p.data().allFinite()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Adds the model and the optimizer state, with one checkpoint id in both; refuses weights that are NaN or infinite, so a
     * broken model never replaces a good one.
     */
    static void addCheckpoint(AtomicFileSet files, Path dir, Module model, Optimizer opt, Map<String, String> metadata) {
        addCheckpoint(files, dir, MODEL, OPTIMIZER, model, opt, metadata, RunPosition.current());
    }

    /** As above, under the given file names, recording {@code position} (none when null). */
    static void addCheckpoint(AtomicFileSet files, Path dir, String modelFile, String optimizerFile, Module model, Optimizer opt,
                              Map<String, String> metadata, RunPosition position) {
        for (Map.Entry<String, dev.jgrad.nn.Parameter> p : model.namedParameters().entrySet()) {
            if (!p.getValue().data().allFinite()) {
                throw new UserError("the trained weight " + p.getKey() + " holds NaN or infinite values: " + dir.resolve(modelFile)
                        + " was not written (lower --lr)");
            }
        }
        // The set is replaced together; the id still pairs the two files when a user copies one of them by hand.
        String id = checkpointId(model, opt);
        Map<String, String> meta = new LinkedHashMap<>(metadata);
        if (position != null) {
            meta.putAll(position.toMetadata());
        }
        dropoutGenerators(model, "", new LinkedHashMap<>()).forEach((name, g) -> meta.put(RNG + name, g.state()));
        meta.put(CHECKPOINT_ID, id);
        files.add(modelFile, Checkpoint.encode(model, meta));
        files.add(optimizerFile, Checkpoint.encodeOptimizer(opt, Map.of(CHECKPOINT_ID, id)));
    }

    /**
     * Loads {@code --resume CHECKPOINT} into the model, and the optimizer state saved beside it if there is
     * one. A missing, corrupt or ill-fitting file is a user error (exit 2) and leaves the model untouched.
     */
    static String resume(Path checkpoint, Module model, Optimizer opt) {
        return checkpoint == null ? null : resume(checkpoint, checkpoint.toAbsolutePath().resolveSibling(OPTIMIZER), model, opt);
    }

    /** As above, with the optimizer state from {@code optState} (when it exists). */
    static String resume(Path checkpoint, Path optState, Module model, Optimizer opt) {
        try {
            Map<String, String> modelMeta = Checkpoint.load(model, checkpoint);
            if (opt != null && Files.exists(optState)) {
                String optId = dev.jgrad.nn.io.Safetensors.load(optState).metadata().get(CHECKPOINT_ID);
                String modelId = modelMeta.get(CHECKPOINT_ID);
                if (modelId != null && optId != null && !modelId.equals(optId)) {
                    throw new UserError("--resume: " + checkpoint + " and " + optState + " were written at different steps (a run was"
                            + " stopped between the two writes): move " + optState.getFileName() + " away to resume from the model alone");
                }
                Checkpoint.loadOptimizer(opt, optState);
                return "resumed from " + checkpoint + " (with the optimizer state beside it)";
            }
            return "resumed from " + checkpoint;
        } catch (CheckpointException e) {
            throw new UserError("--resume: " + oneLine(e.getMessage(), 4), e);
        }
    }

    /** The metadata key prefix of the dropout layers' generator states. */
    static final String RNG = "jgrad.rng.";

    /** The generators of the model's dropout layers, by the layer's dotted name. */
    static Map<String, dev.jgrad.tensor.Generator> dropoutGenerators(Module m, String prefix, Map<String, dev.jgrad.tensor.Generator> out) {
        if (m instanceof dev.jgrad.nn.Dropout) {
            out.put(prefix.isEmpty() ? "." : prefix, ((dev.jgrad.nn.Dropout) m).generator());
        }
        for (Map.Entry<String, Module> c : m.children().entrySet()) {
            dropoutGenerators(c.getValue(), prefix.isEmpty() ? c.getKey() : prefix + "." + c.getKey(), out);
        }
        return out;
    }

    /**
     * Where a resumed run stands (from its checkpoint's metadata), and its curves so far: the metrics of {@code dir} up to
     * the epochs it finished, when the run continues in its own folder. A new run starts from the beginning.
     */
    static RunPosition resumePosition(Path checkpoint, Path dir, Metrics metrics, Module model) {
        Map<String, String> meta = continuingMetadata(checkpoint, dir);
        if (meta == null) {
            // Weights from elsewhere start a new run (fine-tuning); only a run resumed in its own folder continues.
            return RunPosition.start();
        }
        RunPosition pos = RunPosition.of(meta);
        // The dropout layers draw on from where they were (a generator several layers share is restored once per layer, alike).
        for (Map.Entry<String, dev.jgrad.tensor.Generator> g : dropoutGenerators(model, "", new LinkedHashMap<>()).entrySet()) {
            String state = meta.get(RNG + g.getKey());
            if (state != null) {
                try {
                    g.getValue().restore(state);
                } catch (IllegalArgumentException e) {
                    throw new UserError("--resume: " + checkpoint + ": " + e.getMessage());
                }
            }
        }
        if (!pos.atStart()) {
            continueCurves(dir, metrics, series -> pos);
        }
        return pos;
    }

    /**
     * Adds the rows of the run folder's metrics.csv that its checkpoint covers: for each series, the per-epoch rows of the
     * epochs it finished and the step rows up to its step.
     */
    static void continueCurves(Path dir, Metrics metrics, java.util.function.Function<String, RunPosition> positionOfSeries) {
        for (Metrics.Row r : readMetrics(dir)) {
            RunPosition pos = positionOfSeries.apply(r.series());
            if (r.split().equals(Trainer.STEP_SPLIT) ? r.step() <= pos.step : r.epoch() <= pos.epochsDone) {
                metrics.add(r.step(), r.epoch(), r.series(), r.split(), r.loss());
            }
        }
    }

    /** Whether {@code checkpoint} (null: no --resume) lies in the run folder {@code dir}: the run continues there. */
    static boolean resumesIn(Path checkpoint, Path dir) {
        return checkpoint != null && checkpoint.toAbsolutePath().normalize().startsWith(dir.toAbsolutePath().normalize());
    }

    /** The checkpoint's metadata when the run resumes in its own folder (it continues); null for a new run. */
    static Map<String, String> continuingMetadata(Path checkpoint, Path dir) {
        if (!resumesIn(checkpoint, dir)) {
            return null;
        }
        try {
            return dev.jgrad.nn.io.Safetensors.load(checkpoint).metadata();
        } catch (CheckpointException e) {
            throw new UserError("--resume: " + oneLine(e.getMessage(), 4), e);
        }
    }

    /** The rows of the run folder's metrics.csv (none where there is none); an unreadable file is a user error. */
    static java.util.List<Metrics.Row> readMetrics(Path dir) {
        Path csv = dir.resolve("metrics.csv");
        if (!Files.exists(csv)) {
            return java.util.List.of();
        }
        try {
            return Metrics.read(csv).rows();
        } catch (IOException | IllegalArgumentException e) {
            throw new UserError("--resume: cannot read the run's curves " + csv + ": " + e.getMessage());
        }
    }

    /** A multi-line report as one line: its first line, then up to {@code max} detail lines joined by "; ". */
    static String oneLine(String message, int max) {
        String[] lines = message.split("\n");
        StringBuilder sb = new StringBuilder(lines[0].trim());
        for (int i = 1; i < lines.length && i <= max; i++) {
            sb.append(i == 1 ? " " : "; ").append(lines[i].trim());
        }
        if (lines.length - 1 > max) {
            sb.append("; and ").append(lines.length - 1 - max).append(" more");
        }
        return sb.toString();
    }
}
