package dev.jgrad.nn;

import dev.jgrad.nn.io.AtomicFile;
import dev.jgrad.nn.io.CheckpointException;
import dev.jgrad.nn.io.Safetensors;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.tensor.Tensor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Saving and loading a module's parameters (and an optimizer's state) as safetensors files that PyTorch
 * reads with {@code safetensors.torch.load_file} and writes with {@code save_file}. Files are replaced
 * atomically: a crash while saving leaves the previous checkpoint whole. Loading validates the whole file
 * and every name, shape and dtype before anything in the model changes.
 */
public final class Checkpoint {
    private Checkpoint() {
    }

    /** Saves the module's state dict as a safetensors file, replacing {@code path} atomically. */
    public static void save(Module module, Path path) throws IOException {
        save(module, path, Map.of());
    }

    /** Saves the module's state dict with {@code metadata} in the file's header. */
    public static void save(Module module, Path path, Map<String, String> metadata) throws IOException {
        AtomicFile.write(path, encode(module, metadata));
    }

    /** The bytes {@link #save} writes: for a file saved together with others ({@link dev.jgrad.nn.io.AtomicFileSet}). */
    public static byte[] encode(Module module, Map<String, String> metadata) {
        Map<String, Tensor> sd = new LinkedHashMap<>();
        for (Map.Entry<String, Tensor> e : module.stateDict().entrySet()) {
            sd.put(e.getKey(), e.getValue().contiguous());
        }
        return Safetensors.encode(sd, metadata);
    }

    /** Loads parameters by name; a file that does not fit the module is a {@link CheckpointException} saying why. */
    public static Map<String, String> load(Module module, Path path) throws CheckpointException {
        Safetensors.Contents c = Safetensors.load(path);
        try {
            module.loadStateDict(c.tensors());
        } catch (StateDictException e) {
            throw new CheckpointException(path + " does not fit the model: " + e.getMessage(), e);
        }
        return c.metadata();
    }

    /** Saves the optimizer's state (moments, step counts, hyperparameters) as a safetensors file, atomically. */
    public static void saveOptimizer(Optimizer opt, Path path) throws IOException {
        saveOptimizer(opt, path, Map.of());
    }

    /** The optimizer's state with {@code metadata} beside its own (a checkpoint id that pairs it with its model, say). */
    public static void saveOptimizer(Optimizer opt, Path path, Map<String, String> metadata) throws IOException {
        AtomicFile.write(path, encodeOptimizer(opt, metadata));
    }

    /** The bytes {@link #saveOptimizer} writes. */
    public static byte[] encodeOptimizer(Optimizer opt, Map<String, String> metadata) {
        Map<String, String> meta = new LinkedHashMap<>(opt.stateMetadata());
        meta.putAll(metadata);
        return Safetensors.encode(opt.stateTensors(), meta);
    }

    /** Loads an optimizer state saved by {@link #saveOptimizer}; one that does not fit the optimizer changes nothing and says why. */
    public static void loadOptimizer(Optimizer opt, Path path) throws CheckpointException {
        Safetensors.Contents c = Safetensors.load(path);
        try {
            opt.loadState(c.tensors(), c.metadata());
        } catch (StateDictException e) {
            throw new CheckpointException(path + " does not fit the optimizer: " + e.getMessage(), e);
        }
    }
}
