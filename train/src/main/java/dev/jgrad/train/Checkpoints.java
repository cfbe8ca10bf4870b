package dev.jgrad.train;

import dev.jgrad.nn.Checkpoint;
import dev.jgrad.nn.Dropout;
import dev.jgrad.nn.Module;
import dev.jgrad.nn.Parameter;
import dev.jgrad.nn.io.AtomicFileSet;
import dev.jgrad.nn.io.CheckpointException;
import dev.jgrad.nn.io.Safetensors;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A run's checkpoint: model.safetensors (the weights, and in its metadata where the run stands and the states of its
 * random generators) and optimizer.safetensors, paired by one checkpoint id (a checksum of the weights and the optimizer's
 * step count) so that a model is never resumed with another step's optimizer state, nor with weights changed since.
 */
final class Checkpoints {
    static final String MODEL = "model.safetensors";
    static final String OPTIMIZER = "optimizer.safetensors";
    /** The metadata key that pairs a model file with the optimizer state written with it. */
    static final String CHECKPOINT_ID = "jgrad.checkpoint_id";
    /** The metadata key prefix of the random generators' states (the dropout layers', and those a run names). */
    static final String RNG = "jgrad.rng.";

    private Checkpoints() {
    }

    /**
     * What pairs a model file with its optimizer state: a checksum of the weights and the optimizer's step count, the same
     * for the same run (so the same seed writes the same bytes) and different for a model written at another step.
     */
    static String id(Module model, Optimizer opt) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        for (Parameter p : model.parameters()) {
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

    static boolean allFinite(Module model) {
        for (Parameter p : model.parameters()) {
            if (!p.data().allFinite()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Adds the model and the optimizer state to {@code files}, with one checkpoint id in both; refuses weights that are NaN
     * or infinite, so a broken model never replaces a good one.
     */
    static void add(AtomicFileSet files, Path dir, Module model, Optimizer opt, Map<String, String> metadata) {
        for (Map.Entry<String, Parameter> p : model.namedParameters().entrySet()) {
            if (!p.getValue().data().allFinite()) {
                throw new RunException("the trained weight " + p.getKey() + " holds NaN or infinite values: " + dir.resolve(MODEL)
                        + " was not written (lower the learning rate)");
            }
        }
        String id = id(model, opt);
        Map<String, String> meta = new LinkedHashMap<>(metadata);
        dropoutGenerators(model).forEach((name, g) -> meta.put(RNG + name, g.state()));
        meta.put(CHECKPOINT_ID, id);
        files.add(MODEL, Checkpoint.encode(model, meta));
        files.add(OPTIMIZER, Checkpoint.encodeOptimizer(opt, Map.of(CHECKPOINT_ID, id)));
    }

    /**
     * Loads {@code checkpoint} into the model, and the optimizer state beside it where there is one, and returns the model
     * file's metadata. With {@code strict} (a run continuing in its own folder) both files must be there, carry the same id,
     * and that id must be the one the loaded weights and step count give: an edited or mismatched file is refused. A missing,
     * corrupt or ill-fitting file is a {@link RunException} and leaves the model as it was.
     */
    static Map<String, String> load(Path checkpoint, Module model, Optimizer opt, boolean strict) {
        Path optState = checkpoint.toAbsolutePath().resolveSibling(OPTIMIZER);
        try {
            Safetensors.Contents modelFile = Safetensors.load(checkpoint);
            Map<String, String> modelMeta = modelFile.metadata();
            String modelId = modelMeta.get(CHECKPOINT_ID);
            if (strict && !Files.exists(optState)) {
                throw new RunException("--resume: " + optState + " is missing: a run continues only with its optimizer's state; resume"
                        + " from the weights alone with --resume " + checkpoint + " --out NEW_FOLDER");
            }
            if (strict && modelId == null) {
                throw new RunException("--resume: " + checkpoint + " carries no " + CHECKPOINT_ID + ", so nothing shows that it belongs"
                        + " with " + optState.getFileName() + "; resume from the weights alone with --resume " + checkpoint + " --out NEW_FOLDER");
            }
            Checkpoint.load(model, checkpoint);
            if (opt != null && Files.exists(optState)) {
                Safetensors.Contents optFile = Safetensors.load(optState);
                String optId = optFile.metadata().get(CHECKPOINT_ID);
                if ((strict && !java.util.Objects.equals(modelId, optId)) || (modelId != null && optId != null && !modelId.equals(optId))) {
                    throw new RunException("--resume: " + checkpoint + " and " + optState + " were not written together (their checkpoint"
                            + " ids differ: " + modelId + ", " + optId + "); move " + optState.getFileName() + " away to resume from the model alone");
                }
                Checkpoint.loadOptimizer(opt, optState);
                if (strict && !id(model, opt).equals(modelId)) {
                    throw new RunException("--resume: the weights in " + checkpoint + " and the step count in " + optState + " do not give"
                            + " the checkpoint id both files record (" + modelId + "): one of them was changed after it was written;"
                            + " it was not used");
                }
            }
            return modelMeta;
        } catch (CheckpointException e) {
            throw new RunException("--resume: " + oneLine(e.getMessage(), 4), e);
        }
    }

    /** The generators of the model's dropout layers, by the layer's dotted name ("." for the model itself). */
    static Map<String, Generator> dropoutGenerators(Module model) {
        return dropoutGenerators(model, "", new LinkedHashMap<>());
    }

    private static Map<String, Generator> dropoutGenerators(Module m, String prefix, Map<String, Generator> out) {
        if (m instanceof Dropout) {
            out.put(prefix.isEmpty() ? "." : prefix, ((Dropout) m).generator());
        }
        for (Map.Entry<String, Module> c : m.children().entrySet()) {
            dropoutGenerators(c.getValue(), prefix.isEmpty() ? c.getKey() : prefix + "." + c.getKey(), out);
        }
        return out;
    }

    /** Restores a generator from the checkpoint's metadata (the key must be there). */
    static void restore(Generator g, String key, MetadataReader meta) {
        String state = meta.text(key);
        try {
            g.restore(state);
        } catch (IllegalArgumentException e) {
            throw meta.bad(key, state, "a generator's state (" + e.getMessage() + ")");
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
