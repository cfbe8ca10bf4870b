package dev.jgrad.nn.onnx;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link Onnx#export} writes besides the graph: the names of the inputs and outputs, the axes whose size may
 * change ({@code dynamic_axes}: the batch, a sequence length), the opset and the producer. The defaults: inputs
 * {@code input_0, input_1, ...}, output {@code output}, no dynamic axes, opset 17, producer {@code jgrad}.
 * <pre>{@code
 * OnnxOptions o = OnnxOptions.defaults().inputNames("input_ids").outputNames("logits")
 *         .dynamicAxis("input_ids", 0, "batch").dynamicAxis("input_ids", 1, "sequence")
 *         .dynamicAxis("logits", 0, "batch").dynamicAxis("logits", 1, "sequence");
 * }</pre>
 */
public final class OnnxOptions {
    /** The lowest opset written: LayerNormalization is native from 17. */
    public static final int MIN_OPSET = 17;
    /** The highest opset written: the reductions take their axes as inputs from 18, which this writer follows. */
    public static final int MAX_OPSET = 21;

    private final List<String> inputNames = new ArrayList<>();
    private final List<String> outputNames = new ArrayList<>();
    private final Map<String, Map<Integer, String>> dynamicAxes = new LinkedHashMap<>();
    private int opset = MIN_OPSET;
    private String producerName = "jgrad";
    private String producerVersion = "";

    private OnnxOptions() {
    }

    /** The defaults. */
    public static OnnxOptions defaults() {
        return new OnnxOptions();
    }

    /** The graph's input names, one for each example input, in order. */
    public OnnxOptions inputNames(String... names) {
        inputNames.clear();
        inputNames.addAll(List.of(names));
        return this;
    }

    /** The graph's output name(s). */
    public OnnxOptions outputNames(String... names) {
        outputNames.clear();
        outputNames.addAll(List.of(names));
        return this;
    }

    /** Marks axis {@code axis} of the input or output {@code name} as of any size, called {@code symbol} in the file. */
    public OnnxOptions dynamicAxis(String name, int axis, String symbol) {
        dynamicAxes.computeIfAbsent(name, k -> new LinkedHashMap<>()).put(axis, symbol);
        return this;
    }

    /** The ONNX opset, {@value #MIN_OPSET} to {@value #MAX_OPSET}. */
    public OnnxOptions opset(int version) {
        if (version < MIN_OPSET || version > MAX_OPSET) {
            throw new IllegalArgumentException("opset " + version + " is not supported: jgrad writes opsets " + MIN_OPSET + " to "
                    + MAX_OPSET);
        }
        this.opset = version;
        return this;
    }

    /** The producer named in the file. */
    public OnnxOptions producer(String name, String version) {
        this.producerName = name;
        this.producerVersion = version;
        return this;
    }

    /** The input names given (empty: the defaults). */
    public List<String> inputNames() {
        return List.copyOf(inputNames);
    }

    /** The output names given (empty: the default). */
    public List<String> outputNames() {
        return List.copyOf(outputNames);
    }

    /** The dynamic axes: for each input or output name, its axes and their symbols. */
    public Map<String, Map<Integer, String>> dynamicAxes() {
        return dynamicAxes;
    }

    /** The opset. */
    public int opset() {
        return opset;
    }

    String producerName() {
        return producerName;
    }

    String producerVersion() {
        return producerVersion;
    }
}
