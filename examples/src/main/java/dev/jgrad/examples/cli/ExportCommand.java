package dev.jgrad.examples.cli;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.examples.UserError;
import dev.jgrad.examples.train.ModelExport;
import dev.jgrad.nn.Checkpoint;
import dev.jgrad.nn.io.AtomicFile;
import dev.jgrad.nn.io.CheckpointException;
import dev.jgrad.nn.onnx.Onnx;
import dev.jgrad.nn.onnx.OnnxExportException;
import dev.jgrad.nn.onnx.OnnxOptions;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.train.RunConfig;
import dev.jgrad.train.RunException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code jgrad export RUN_FOLDER}: the run's model as ONNX, checked in ONNX Runtime before it is written. The model is
 * rebuilt from the run's config.json and loaded from its model.safetensors; the file is written to a temporary name and
 * renamed, so a failed export leaves what was there.
 */
@Command(name = "export", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Export the model of a run folder ('jgrad train' of regression, attention, mlp, fashion, pinn or gpt) to ONNX: "
            + "rebuilt from the run's options, loaded from its model.safetensors, run once in ONNX Runtime on a batch of the run's own data "
            + "and compared with jgrad's output. What each model takes and gives: docs/onnx.md."})
public final class ExportCommand implements Callable<Integer> {
    /** The largest difference from jgrad's output the check accepts (float32: 1e-5 absolute, or 1e-4 of the value). */
    static final double TOLERANCE_ABS = 1e-5;
    static final double TOLERANCE_REL = 1e-4;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RUN_FOLDER", description = "the folder a 'jgrad train' run wrote")
    Path run;
    @Option(names = "--out", paramLabel = "FILE", description = "where to write the model (default: RUN_FOLDER/model.onnx)")
    Path out;
    @Option(names = "--opset", paramLabel = "N", defaultValue = "17",
            description = "the ONNX opset, " + OnnxOptions.MIN_OPSET + " to " + OnnxOptions.MAX_OPSET + " (default: ${DEFAULT-VALUE})")
    int opset;

    @Override
    public Integer call() {
        if (opset < OnnxOptions.MIN_OPSET || opset > OnnxOptions.MAX_OPSET) {
            throw new ParameterException(spec.commandLine(), "--opset must be from " + OnnxOptions.MIN_OPSET + " to " + OnnxOptions.MAX_OPSET
                    + ", got " + opset);
        }
        if (!Files.isDirectory(run)) {
            throw new UserError(run + " is not a folder: export takes the folder a 'jgrad train' run wrote");
        }
        RunConfig config;
        try {
            config = RunConfig.read(run).orElseThrow(() -> new UserError(run + " is not a run folder: it has no " + RunConfig.FILE
                    + " (export takes the folder a 'jgrad train' run wrote)"));
        } catch (RunException e) {
            throw e instanceof UserError u ? u : new UserError(e.getMessage(), e);
        }
        Path weights = run.resolve("model.safetensors");
        if (!Files.isRegularFile(weights)) {
            throw new UserError(run + " has no model.safetensors: the run wrote no checkpoint yet (it stops before its first one?)");
        }
        Path target = out != null ? out : run.resolve("model.onnx");
        Map<String, String> metadata = readMetadata(weights);
        ModelExport.Plan plan = ModelExport.plan(config, run, metadata);
        try {
            Checkpoint.load(plan.module(), weights);
        } catch (CheckpointException e) {
            throw new UserError(weights + ": " + e.getMessage().split("\n")[0], e);
        }
        OnnxOptions options = plan.options().opset(opset).producer("jgrad", JgradCommand.VERSION);
        byte[] bytes;
        try {
            bytes = Onnx.toBytes(plan.module(), plan.forward(), plan.batch(), options);
        } catch (OnnxExportException e) {
            throw new UserError("export failed: " + e.getMessage(), e);
        }
        double[] diff = check(plan, bytes);
        if (!(diff[0] <= TOLERANCE_ABS + TOLERANCE_REL * diff[1])) {
            throw new UserError(String.format(Locale.ROOT, "export failed its check: ONNX Runtime's output differs from jgrad's by up to %.3g"
                    + " (values up to %.3g); %s was not written. Please report this with the run's config.json", diff[0], diff[1], target));
        }
        try {
            AtomicFile.write(target, bytes);
        } catch (IOException e) {
            throw new UserError("cannot write " + target + ": " + AtomicFile.reason(e), e);
        }
        System.out.println("jgrad export: " + run + " (" + config.trainer() + "): " + plan.signature());
        System.out.printf(Locale.ROOT, "Wrote %s (%s, opset %d)%n", target, size(bytes.length), opset);
        System.out.printf(Locale.ROOT, "ONNX Runtime %s on %s: largest difference from jgrad %.2g (outputs up to %.3g)%n",
                OnnxRuntimeCheck.version(), plan.dataNote(), diff[0], diff[1]);
        return 0;
    }

    private static Map<String, String> readMetadata(Path weights) {
        try {
            return dev.jgrad.nn.io.Safetensors.load(weights).metadata();
        } catch (CheckpointException e) {
            throw new UserError(weights + ": " + e.getMessage().split("\n")[0], e);
        }
    }

    /** The largest absolute difference between ONNX Runtime's output and jgrad's, and the largest magnitude of jgrad's. */
    private static double[] check(ModelExport.Plan plan, byte[] bytes) {
        Tensor want;
        plan.module().eval();
        try (NoGrad g = NoGrad.enter()) {
            Variable[] in = new Variable[plan.batch().length];
            for (int i = 0; i < in.length; i++) {
                in[i] = Variable.of(plan.batch()[i]);
            }
            want = plan.forward().apply(in).data();
        }
        Map<String, Tensor> feeds = new LinkedHashMap<>();
        for (int i = 0; i < plan.batch().length; i++) {
            feeds.put(plan.options().inputNames().get(i), plan.batch()[i]);
        }
        Tensor got;
        try {
            got = OnnxRuntimeCheck.run(bytes, feeds);
        } catch (Exception e) {
            throw new UserError("export failed its check: ONNX Runtime cannot run the model: " + e.getMessage(), e);
        }
        if (!java.util.Arrays.equals(got.shape(), want.shape())) {
            throw new UserError("export failed its check: ONNX Runtime's output has shape " + java.util.Arrays.toString(got.shape())
                    + ", jgrad's " + java.util.Arrays.toString(want.shape()));
        }
        float[] a = want.toFloatArray();
        float[] b = got.toFloatArray();
        double worst = 0;
        double largest = 0;
        for (int i = 0; i < a.length; i++) {
            double d = Math.abs(a[i] - b[i]);
            worst = Double.isNaN(d) ? Double.NaN : Math.max(worst, d);
            largest = Math.max(largest, Math.abs(a[i]));
        }
        return new double[] {worst, largest};
    }

    private static String size(long bytes) {
        return bytes < 1 << 20 ? String.format(Locale.ROOT, "%.1f KB", bytes / 1024.0) : String.format(Locale.ROOT, "%.1f MB", bytes / 1048576.0);
    }
}
